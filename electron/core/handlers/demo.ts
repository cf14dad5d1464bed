import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/**
 * demo.start: starts the embedded sandbox (once per run) and adds or reconnects its account;
 * demo.users and demo.addUser: its other users, and adding one as an account of its own.
 */
export function demoHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'demo.start' | 'demo.users' | 'demo.addUser'> {
  return {
    'demo.start': () => ctx.demo.start(),
    'demo.users': () => ctx.demo.directory(),
    'demo.addUser': ({ username }) => ctx.demo.addUser(username),
  }
}

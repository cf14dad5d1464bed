import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'

/** demo.start: starts the embedded sandbox (once per run) and adds or reconnects its account. */
export function demoHandlers(ctx: HandlerContext): Pick<HandlerTable, 'demo.start'> {
  return {
    'demo.start': () => ctx.demo.start(),
  }
}

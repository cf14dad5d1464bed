import { AppFailure, fail } from '@contract/errors'
import type { HandlerContext } from '../handlers/context'
import { openLink } from './links'

/** Where link-intake warnings go (main's or browser mode's log). */
export type IntakeLog = (level: 'info' | 'warn' | 'error', message: string) => void

/**
 * A link arrived from the OS (protocol handler, second instance, command line): keeps it like
 * links.open and announces it with 'links.opened' so a window shows it. A link that cannot be
 * used is only logged — without its token — and nothing is emitted.
 */
export async function openLinkFromOs(
  ctx: HandlerContext,
  link: string,
  log?: IntakeLog,
): Promise<void> {
  try {
    if (link.length > 4096) fail('VALIDATION', 'The link is too long.')
    const view = await openLink(ctx, link)
    ctx.events.emit('links.opened', view)
  } catch (err) {
    const reason =
      err instanceof AppFailure ? err.error.message : 'ScanDesk could not read the link.'
    log?.('warn', `a link from the system was not opened: ${reason}`)
  }
}

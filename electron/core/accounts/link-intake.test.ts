import { describe, expect, it } from 'vitest'
import type { EventName } from '@contract/channel-names'
import { CoreEvents } from '../events'
import type { HandlerContext } from '../handlers/context'
import { openLinkFromOs } from './link-intake'
import { linkStoreOf } from './links'

/** Just what link intake uses of the core: the account list and the event bus. */
function fakeCore() {
  const events = new CoreEvents()
  const seen: { name: EventName; payload: unknown }[] = []
  events.onAny((name, payload) => seen.push({ name, payload }), ['links.opened'])
  const accounts = {
    list: async () => ({
      accounts: [{ id: 'acct-0001', baseUrl: 'https://scanner.example.com' }],
      activeId: 'acct-0001',
    }),
  }
  const ctx = { accounts, events } as unknown as HandlerContext
  const logs: string[] = []
  const log = (level: string, message: string) => void logs.push(`${level} ${message}`)
  return { ctx, seen, logs, log }
}

describe('a link arriving from the operating system', () => {
  it('is kept like a pasted link and announced to the windows', async () => {
    const { ctx, seen, logs, log } = fakeCore()
    await openLinkFromOs(ctx, 'scandesk://sso?host=scanner.example.com&token=os-token-123456', log)
    expect(seen).toHaveLength(1)
    expect(seen[0].payload).toMatchObject({
      kind: 'sso',
      host: 'scanner.example.com',
      accountIds: ['acct-0001'],
    })
    const { linkId } = seen[0].payload as { linkId: string }
    expect(linkStoreOf(ctx.accounts).peek(linkId).token).toBe('os-token-123456')
    expect(JSON.stringify(seen)).not.toContain('os-token-123456')
    expect(logs).toEqual([])
  })

  it.each([
    ['scandesk://sso?host=elsewhere.test&token=secret-token-987', 'No account in ScanDesk uses'],
    ['scandesk://nope?host=scanner.example.com&token=secret-token-987', 'does not know links'],
    ['https://scanner.example.com/?token=secret-token-987', 'Only scandesk:// links'],
    [
      `scandesk://sso?host=scanner.example.com&token=secret-token-987${'&x'.repeat(3000)}`,
      'too long',
    ],
  ])('announces nothing for %s and logs why without the token', async (text, reason) => {
    const { ctx, seen, logs, log } = fakeCore()
    await openLinkFromOs(ctx, text, log)
    expect(seen).toEqual([])
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatch(/^warn /)
    expect(logs[0]).toContain(reason)
    expect(logs[0]).not.toContain('secret-token-987')
  })
})

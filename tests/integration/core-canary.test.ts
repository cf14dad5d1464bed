// Secrets carry a unique marker; after a session of ordinary and failing work, the marker (and
// the session token the service issued) must appear nowhere the renderer, a log or the disk sees.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '../../electron/contract/accounts'
import {
  analystAccount,
  bytesOf,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
} from './core-helpers'

const MARK = `CANARY${randomUUID().replace(/-/g, '')}`
let sandbox: RecordedSandbox

beforeAll(async () => {
  sandbox = await startRecordedSandbox({ apiKey: `key-${MARK}` })
})
afterAll(() => sandbox.close())

describe('secrets stay secret', () => {
  it('never shows the API key, password or session token in results, events, logs or the store', async () => {
    const t = await startTestCore()
    const wrongPassword = `pw-${MARK}`
    // failing and succeeding work of every kind
    await t.call('accounts.add', analystAccount(sandbox, { password: wrongPassword }))
    await t.call('accounts.add', analystAccount(sandbox, { apiKey: `bad-${MARK}` }))
    await t.call('accounts.add', { ...analystAccount(sandbox), apiKey: `${MARK}\u0000` })
    const view = await t.ok<AccountView>('accounts.add', analystAccount(sandbox))
    const token = await t.vault!.get(view.id, 'session_token')
    expect(token).toBeTruthy()
    const call = (op: string, input?: unknown) =>
      t.call('api.call', { accountId: view.id, op, input })
    await call('targets.list')
    await call('targets.create', { body: { name: 'Canary host', address: 'canary.example' } })
    await call('targets.show', { path: { id: 'tgt-999' } })
    await call('targets.show', { path: { id: `../${MARK}` } })
    await call('scans.upcoming', { query: { limit: 3 } })
    await t.call('accounts.signIn', { accountId: view.id, password: wrongPassword })
    await t.call('accounts.signOut', { accountId: view.id })
    await t.call('accounts.signIn', { accountId: view.id, password: 'sandbox-password' })
    const token2 = await t.vault!.get(view.id, 'session_token')
    await t.call('accounts.list')
    await t.call('app.info')
    sandbox.setFaults({ unauthorizedAfter: 1 })
    await call('targets.list')
    await call('targets.list')
    sandbox.setFaults({ unauthorizedAfter: 0 })

    const secrets = [MARK, token!, token2!]
    const seen = [...t.results, ...t.events.map((e) => JSON.stringify(e.payload)), ...t.logs].join(
      '\n',
    )
    expect(t.results.length).toBeGreaterThan(10)
    const diskWhileOpen = bytesOf(t.dataDir)
    await t.close()
    const diskAfter = bytesOf(t.dataDir)
    for (const secret of secrets) {
      expect(seen).not.toContain(secret)
      expect(diskWhileOpen.includes(Buffer.from(secret))).toBe(false)
      expect(diskAfter.includes(Buffer.from(secret))).toBe(false)
    }
    // the test would notice: the marker did reach the service
    expect(sandbox.requests.length).toBeGreaterThan(5)
  })
})

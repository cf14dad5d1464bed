// Issue 41, hard kills: a core in a child process killed with SIGKILL a quarter into a 300-write
// bulk accept, the 75th create sent and unanswered (the sandbox made it; the fault proxy in front
// of it keeps the answer back), then a new core on the same data folder and keychain. All 300
// exceptions exist exactly once, the sandbox's own request log counts 300 creates, and the one in
// flight is recognised by the check before any re-send (never sent again). Three times, on one
// sandbox (its large seed: 64,000 findings the analyst sees), each round on its own findings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkRunDetails, BulkRunView } from '@contract/bulk'
import type { ApiCallOutput } from '@contract/channels'
import {
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import { crashRoot, heldFor, keychainAfterCrash, spawnCrashChild, until } from './crash-helpers'
import { startFaultProxy, type FaultProxy } from './faults-helpers'

const WRITES = 300
/** The create held at the kill: a quarter into the run. */
const HELD = 75
const ROUNDS = 3

let sandbox: RecordedSandbox
let proxy: FaultProxy

beforeAll(async () => {
  sandbox = await startRecordedSandbox({ seedScale: 'large' })
  proxy = await startFaultProxy(sandbox)
})
afterAll(async () => {
  await proxy?.close()
  await sandbox?.close()
})

const isCreate = (method: string, p: string) => method === 'POST' && p === '/v2/exceptions'
/** The creates the sandbox answered between two points of its log. */
const creates = (from: number, to?: number) =>
  sandbox.requests.slice(from, to).filter((l) => l.startsWith('POST /v2/exceptions '))

/** Every exception made with `reason`, as finding → how many. */
async function madeWith(t: TestCore, accountId: string, reason: string) {
  const per = new Map<string, string[]>()
  for (let page = 1; ; page++) {
    const out = await t.ok<ApiCallOutput>('api.call', {
      accountId,
      op: 'exceptions.list',
      input: { query: { page, per_page: 500 } },
    })
    const rows = (out.data as { data: { id: string; attributes: Record<string, unknown> }[] }).data
    for (const e of rows)
      if (e.attributes.reason === reason) {
        const v = String(e.attributes.vulnerability_id)
        per.set(v, [...(per.get(v) ?? []), e.id])
      }
    if (rows.length < 500) return per
  }
}

describe('a bulk run killed in the middle', () => {
  it(`makes each of ${WRITES} exceptions once across a SIGKILL with a create in flight (${ROUNDS} rounds)`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const { dataDir, remove } = crashRoot()
      const reason = `Compensating control: segment isolated (crash round ${round})`
      const from = sandbox.requests.length
      try {
        const held = proxy.hold({ matching: isCreate, skip: HELD - 1, at: 'answer' })
        const child = spawnCrashChild('tests/integration/crash-child.ts', {
          CHILD_SCENARIO: 'bulk',
          CHILD_DATA_DIR: dataDir,
          CHILD_BASE_URL: proxy.baseUrl,
          CHILD_API_KEY: sandbox.apiKey,
          CHILD_REASON: reason,
          CHILD_PAGE: String(round),
          CHILD_WRITES: String(WRITES),
        })
        const runId = await child.waitFor((w) => w === 'run', 'the run to start')
        await heldFor(child, held)
        await child.kill()
        proxy.dropHeld()
        // The sandbox made the held one too: its answer never reached the killed process.
        const atKill = sandbox.requests.length
        expect(creates(from, atKill)).toHaveLength(HELD)

        const t = await startTestCore({
          dataDir,
          vault: await keychainAfterCrash(child.secrets()),
          httpLimits: { backoffBaseMs: 5, backoffMaxMs: 20 },
        })
        try {
          // The run's own event says when it finished (reading it meanwhile would compete with
          // the deliveries for this one event loop, which the sandbox and the proxy share).
          const finished = () =>
            t.events.some(
              (e) =>
                e.name === 'bulk.changed' &&
                (e.payload as BulkRunView).id === runId &&
                (e.payload as BulkRunView).state === 'finished',
            )
          await until(finished, 'the run to finish after the restart')
          const done = await t.ok<BulkRunDetails>('bulk.get', { runId })
          expect(done.counts).toMatchObject({ total: WRITES, done: WRITES, failed: 0, skipped: 0 })
          // The sandbox's own log: each write created once, none sent again after the restart.
          expect(creates(from)).toHaveLength(WRITES)
          expect(creates(atKill)).toHaveLength(WRITES - HELD)
          expect(creates(from).every((l) => l.includes('→ 201'))).toBe(true)
          // Every write handed over once; the one in flight found by the check, not re-sent.
          expect(done.items.every((i) => i.attempts === 1)).toBe(true)
          const inFlight = done.items[HELD - 1]
          const made = await madeWith(t, done.accountId, reason)
          expect(made.size).toBe(WRITES)
          expect([...made.values()].every((ids) => ids.length === 1)).toBe(true)
          expect(new Set(made.keys())).toEqual(new Set(done.items.map((i) => i.target)))
          expect(inFlight).toMatchObject({ state: 'done', resultId: made.get(inFlight.target)![0] })
        } finally {
          await t.close()
        }
      } finally {
        remove()
      }
    }
  }, 240_000)
})

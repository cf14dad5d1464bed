// Fuzzing every request channel through the real core (temporary data folder, the analyst signed
// in on a recorded sandbox): arbitrary JSON, values that only survive structured clone, objects
// with `__proto__` / `constructor` / `prototype` keys, and each channel's own valid payload with
// fields replaced by values of the wrong type. Whatever arrives, dispatch resolves to the JSON text
// of a Result; a failure carries a known code and a short message without a stack or a secret; a
// payload the channel's schema refuses reaches neither the service nor the disk.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { CHANNEL_NAMES, type ChannelName } from '@contract/channel-names'
import { channelInputs } from '@contract/channels'
import { ERROR_CODES, type Result } from '@contract/errors'
import { headlessHost } from '../../electron/core/host'
import {
  addAnalyst,
  analystAccount,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'

/** Runs per channel: ~60 channels × 50 runs stays well under a minute on 2 cores. */
const RUNS = 50

/**
 * Channels that, given a payload their schema accepts, open an OS dialog or do real, lasting work
 * (sign in or out, remove or change the account and its credentials, start exports that write
 * files later, write audit bundles, send e-mails, probe arbitrary addresses, switch the whole app
 * offline, clear the offline copy, start bulk runs of writes, make PCI evidence files). They are
 * fuzzed with payloads their schema refuses only, so one run cannot change what the next runs
 * see; every other channel takes valid payloads too.
 */
const INVALID_ONLY: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'demo.start',
  'demo.users',
  'demo.addUser',
  'accounts.add',
  'accounts.signIn',
  'accounts.signOut',
  'accounts.remove',
  'accounts.update',
  'accounts.detectRelease',
  'accounts.accessToken',
  'accounts.setRemember',
  'accounts.impersonate',
  'accounts.stopImpersonation',
  'accounts.requestPasswordReset',
  'exports.generate',
  'files.setFolder',
  'saq.evidence.attach',
  'saq.evidence.attachReport',
  'saq.evidence.attachFindings',
  'saq.auditBundle',
  'connectivity.setWorkOffline',
  'connectivity.network',
  'cache.clear',
  'bulk.start',
  // Update now fetches a feed's public address (the internet, for the analyst's account); saving
  // an address changes what the next run's update would fetch.
  'intel.update',
  'intel.setFeed',
  // Writes an asset-context file into the user's folder (a second run's file would be refused).
  'assets.export',
])

/** The SAQ requirement a PCI evidence channel attaches to. */
const pciTarget = (accountId: string) => ({
  accountId,
  saqKey: 'saq-001',
  saqName: 'Web shop SAQ',
  saqType: 'A',
  requirement: '11.3.2',
})

const LOCAL_ID = '0b7c4f6e-3c1a-4d5e-9f00-123456789abc'
const FLOW_ID = 'AbCdEfGhIjKlMnOp1234'
const OUTBOX_ID = 'outbox-item-0001'

/**
 * A payload each channel accepts (the starting point of the wrong-type mutations); a channel
 * missing here (a new one) starts from `{}`, so it is still fuzzed.
 */
function examples(
  accountId: string,
  sandbox: RecordedSandbox,
  home: string,
): Partial<Record<ChannelName, Record<string, unknown>>> {
  const doc = { accountId, kind: 'report', resourceId: 'rep-001', format: 'pdf' }
  const draft = { accountId, kind: 'saq', key: 'saq-001' }
  return {
    'api.call': { accountId, op: 'targets.list', input: { query: { page: 1, per_page: 5 } } },
    'api.cancel': { requestId: 'request-0001' },
    'accounts.add': analystAccount(sandbox, { label: 'Fuzzed' }),
    'accounts.signIn': { accountId, password: 'sandbox-password', remember: false },
    'accounts.signOut': { accountId },
    'accounts.remove': { accountId },
    'accounts.setActive': { accountId },
    'settings.set': { theme: 'dark', notifyOnFinish: true, maxDownloadBytes: 8 * 1024 ** 2 },
    'exports.list': { accountId },
    'exports.generate': doc,
    'exports.cancel': { jobId: LOCAL_ID },
    'exports.retry': { jobId: LOCAL_ID },
    'exports.download': { jobId: LOCAL_ID, saveAs: false },
    'exports.dismiss': { jobId: LOCAL_ID },
    'files.getFolder': { accountId },
    'files.setFolder': { accountId, folder: home },
    'files.folderChoices': { accountId },
    'library.list': { accountId, search: 'report' },
    'library.reverify': { entryId: LOCAL_ID, mode: 'offline' },
    'library.open': { entryId: LOCAL_ID },
    'library.reveal': { entryId: LOCAL_ID },
    'library.verifyFile': { ...doc, path: path.join(home, 'report.pdf') },
    'saq.evidence.attach': {
      accountId,
      saqKey: 'saq-001',
      saqName: 'SAQ A',
      saqType: 'A',
      requirement: '8.3.1',
      path: path.join(home, 'evidence.txt'),
    },
    'saq.evidence.list': { accountId, saqKey: 'saq-001' },
    'saq.evidence.remove': { entryId: LOCAL_ID },
    'saq.evidence.link': { accountId, draftKey: 'draft-001', saqId: 'saq-001' },
    'saq.evidence.attachReport': { ...pciTarget(accountId), reportId: 'rpt-001' },
    'saq.evidence.attachFindings': pciTarget(accountId),
    'saq.auditBundle': { accountId, saqIds: ['saq-001'] },
    'accounts.secondFactor': { challengeId: FLOW_ID, method: 'app', code: '123456' },
    'accounts.sendSms': { challengeId: FLOW_ID },
    'accounts.cancelChallenge': { challengeId: FLOW_ID },
    'accounts.update': { accountId, label: 'Renamed', color: '#112233' },
    'accounts.test': { accountId },
    'accounts.detectRelease': { accountId },
    'accounts.removalPlan': { accountId },
    'accounts.accessToken': { accountId, action: 'check' },
    'accounts.setRemember': { accountId, remember: false },
    'accounts.impersonate': { accountId, userId: 'usr-002' },
    'accounts.stopImpersonation': { accountId },
    'accounts.cancelReauth': { accountId },
    'accounts.requestPasswordReset': { accountId },
    'accounts.openWindow': { accountId },
    'links.open': { link: 'scandesk://confirm?host=127.0.0.1&token=abcdefgh12345678' },
    'links.complete': { linkId: FLOW_ID, accountId },
    'links.dismiss': { linkId: FLOW_ID },
    'drafts.get': draft,
    'drafts.save': { ...draft, data: { answers: { '8.3.1': 'yes' } } },
    'drafts.delete': draft,
    'drafts.list': { accountId, kind: 'saq' },
    'connectivity.setWorkOffline': { on: false },
    'connectivity.network': { online: true },
    'connectivity.check': { accountId },
    'cache.status': { accountId },
    'cache.clear': { accountId },
    'outbox.list': { accountId },
    'outbox.retry': { id: OUTBOX_ID },
    'outbox.discard': { id: OUTBOX_ID },
    'changes.snapshots': { accountId, scanId: 'scn-001' },
    'changes.compare': { accountId, scanId: 'scn-001', from: 'run-001', to: 'run-002' },
    'changes.exportCsv': { accountId, scanId: 'scn-001', path: path.join(home, 'changes.csv') },
    'bulk.start': {
      accountId,
      action: 'exceptions.create',
      body: { kind: 'accepted_risk', reason: 'Fuzzed', expires_at: '2099-01-01T00:00:00Z' },
      items: [{ id: 'vul-001', label: 'Fuzzed finding' }],
    },
    'bulk.list': { accountId },
    'bulk.get': { runId: LOCAL_ID },
    'bulk.cancel': { runId: LOCAL_ID },
    'bulk.retry': { runId: LOCAL_ID },
    'bulk.dismiss': { runId: LOCAL_ID },
    'since.counts': { accountId },
    'since.left': { accountId, until: '2026-11-02T00:00:00.000Z' },
    'since.reviewed': { accountId, until: '2026-11-02T00:00:00.000Z' },
    'remediation.get': { accountId },
    'remediation.set': {
      accountId,
      policy: { critical: 15, high: 30, medium: 90, low: 180 },
      notify: false,
    },
    'trends.daily': { accountId, days: 90 },
    'intel.feeds': { accountId },
    'intel.setFeed': { accountId, feed: 'kev', address: 'https://mirror.example/kev.json' },
    'intel.update': { accountId, feed: 'kev' },
    'intel.priority': {
      accountId,
      findings: [{ id: 'vuln-001', severity: 'high', cves: ['CVE-2024-12345'] }],
    },
    'assets.get': { accountId },
    'assets.set': {
      accountId,
      place: { kind: 'host', address: '10.0.0.1' },
      context: { owner: 'IT' },
    },
    'assets.setRules': {
      accountId,
      rules: [{ match: { kind: 'range', range: '10.0.0.0/8' }, exposure: 'internal' }],
    },
    'assets.export': { accountId, path: path.join(home, 'assets.json') },
    'assets.import': { accountIds: [accountId], path: path.join(home, 'assets.json') },
  }
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const

/** Values of the wrong type (and of the right type at the edges) for any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    2 ** 53 + 2,
    '',
    ' ',
    '../../etc/passwd',
    'http://127.0.0.2:1/steal',
    'x'.repeat(5_000),
    '\u0000',
    [],
    {},
    [null],
    { polluted: 'yes' },
  ),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
)

/** Every plain object inside `value` (the containers a mutation can change), each once. */
function containersOf(value: unknown, out: Record<string, unknown>[] = []): object[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    if (out.includes(value as Record<string, unknown>)) return out
    out.push(value as Record<string, unknown>)
    for (const v of Object.values(value)) containersOf(v, out)
  }
  return out
}

interface Mutation {
  container: number
  key: { known: number } | { name: string }
  value: { set: unknown } | 'delete'
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  container: fc.nat(),
  key: fc.oneof(
    { weight: 3, arbitrary: fc.record({ known: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ name: fc.constantFrom(...PROTO_KEYS) }) },
    { weight: 1, arbitrary: fc.record({ name: fc.string({ maxLength: 12 }) }) },
  ),
  value: fc.oneof(
    { weight: 4, arbitrary: fc.record({ set: wrongValue }) },
    { weight: 1, arbitrary: fc.constant('delete' as const) },
  ),
})

/** The example with 1–3 fields replaced, added or removed (own `__proto__` keys as JSON.parse makes them). */
function mutated(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const copy = structuredClone(example)
    for (const m of mutations) {
      const containers = containersOf(copy) as Record<string, unknown>[]
      const target = containers[m.container % containers.length]
      const keys = Object.keys(target)
      const key =
        'known' in m.key ? (keys.length ? keys[m.key.known % keys.length] : 'x') : m.key.name
      if (m.value === 'delete') delete target[key]
      else
        Object.defineProperty(target, key, {
          // A copy: a generated value (fc.constant hands out one instance) must never be
          // changed by a later mutation, nor end up inside itself.
          value: structuredClone(m.value.set),
          enumerable: true,
          writable: true,
          configurable: true,
        })
    }
    return copy
  })
}

/** Payloads with prototype-polluting keys, parsed from JSON text as a bridge would receive them. */
function pollutingPayloads(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  const body = JSON.stringify(example).slice(1, -1)
  const sep = body ? ',' : ''
  return fc
    .constantFrom(
      `{"__proto__":{"polluted":"yes"}${sep}${body}}`,
      `{${body}${sep}"constructor":{"prototype":{"polluted":"yes"}}}`,
      `{${body}${sep}"prototype":{"polluted":"yes"}}`,
      `{"input":{"__proto__":{"polluted":"yes"}},"data":{"__proto__":{"polluted":"yes"}}${sep}${body}}`,
      `[{"__proto__":{"polluted":"yes"}}]`,
    )
    .map((text) => JSON.parse(text) as unknown)
}

/** The example with each top-level field replaced, or not, by another value of the same type. */
function sameTypes(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(
    Object.entries(example).map(([key, value]): [string, fc.Arbitrary<unknown>] => {
      const other =
        typeof value === 'string'
          ? fc.string({ maxLength: 80 })
          : typeof value === 'number'
            ? fc.integer()
            : typeof value === 'boolean'
              ? fc.boolean()
              : fc.constant(value)
      return [key, fc.oneof(fc.constant(value), other)]
    }),
  )
  return fc.record(fields)
}

/** Everything a channel gets: arbitrary JSON, structured-clone values, mutations, polluting keys. */
function payloads(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue(),
    fc.anything().map((v) => JSON.parse(JSON.stringify(v) ?? 'null') as unknown),
    fc.anything(),
    mutated(example),
    mutated(example),
    sameTypes(example),
    fc.constant(example),
    pollutingPayloads(example),
  )
}

/** Names and sizes of every file under the folders (SQLite's files included). */
function snapshot(folders: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const folder of folders) {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name)
      out[full] = entry.isFile() ? fs.statSync(full).size : -1
    }
  }
  return out
}

function accepted(channel: ChannelName, payload: unknown): boolean {
  return channelInputs[channel].safeParse(payload ?? {}).success
}

const OWN_OBJECT_KEYS = Object.getOwnPropertyNames(Object.prototype).sort()

describe('fuzzing every request channel', () => {
  let sandbox: RecordedSandbox
  let t: TestCore
  let account: AccountView
  let home: string
  let folder: string
  let example: Partial<Record<ChannelName, Record<string, unknown>>>

  beforeAll(async () => {
    sandbox = await startRecordedSandbox()
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-fuzz-home-'))
    folder = path.join(home, 'Downloads')
    fs.mkdirSync(folder)
    // Typed paths (browser mode) may point only into this temporary "home".
    t = await startTestCore({ host: { ...headlessHost, userFolders: () => [home] } })
    account = await addAnalyst(t, sandbox)
    await t.ok('files.setFolder', { accountId: account.id, folder })
    example = examples(account.id, sandbox, home)
  })
  afterAll(async () => {
    await t?.close()
    await sandbox?.close()
    for (const dir of [home, t?.dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** The secrets no answer may carry: the API key, the session token, the password. */
  async function secrets(): Promise<string[]> {
    const token = await t.vault?.get(account.id, 'session_token')
    return [sandbox.apiKey, 'sandbox-password', token].filter(
      (s): s is string => typeof s === 'string' && s.length >= 8,
    )
  }

  it('starts every mutation from a payload its channel accepts', () => {
    for (const [name, payload] of Object.entries(example))
      expect(accepted(name as ChannelName, payload), name).toBe(true)
  })

  it.each([...CHANNEL_NAMES])('%s: any payload gets a typed answer', async (name) => {
    const restricted = INVALID_ONLY.has(name)
    const base = payloads(example[name] ?? {})
    const arbitrary = restricted ? base.filter((p) => !accepted(name, p)) : base
    await fc.assert(
      fc.asyncProperty(arbitrary, async (payload) => {
        const refused = !accepted(name, payload)
        const requestsBefore = sandbox.requests.length
        const filesBefore = snapshot([t.dataDir, home])

        // Resolves (a rejection fails the property), to the JSON text of a Result.
        const text = await t.core.dispatch(name, payload, { origin: 'browser' })
        expect(typeof text).toBe('string')
        const result = JSON.parse(text) as Result<unknown>
        expect(typeof result.ok).toBe('boolean')
        for (const secret of await secrets()) expect(text).not.toContain(secret)

        if (!result.ok) {
          expect(ERROR_CODES).toContain(result.error.code)
          expect(typeof result.error.message).toBe('string')
          expect(result.error.message.trim().length).toBeGreaterThan(0)
          expect(text).not.toMatch(/\n\s+at /)
          expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/)
        }
        if (refused) {
          expect(result.ok ? 'ok' : result.error.code).toBe('VALIDATION')
        }
        // Refused before any work (by the channel's schema or the handler's own checks, i.e. a
        // VALIDATION the service did not answer): nothing sent, nothing written.
        if (!result.ok && result.error.code === 'VALIDATION' && result.error.status === undefined) {
          expect(sandbox.requests.length).toBe(requestsBefore)
          expect(snapshot([t.dataDir, home])).toEqual(filesBefore)
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(OWN_OBJECT_KEYS)
      }),
      { numRuns: RUNS },
    )
  })

  it('leaves the account signed in and its key unchanged after the fuzzing', async () => {
    const list = await t.ok<{ accounts: AccountView[] }>('accounts.list')
    expect(list.accounts.find((a) => a.id === account.id)?.signedIn).toBe(true)
    expect(await t.vault?.get(account.id, 'api_key')).toBe(sandbox.apiKey)
  })
})

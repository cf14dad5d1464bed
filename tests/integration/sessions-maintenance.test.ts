import fs from 'node:fs'
import tls from 'node:tls'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '../../electron/contract/accounts'
import type { AccountList } from '../../electron/contract/channels'
import type { ExportJob } from '../../electron/contract/files'
import type {
  ConnectionTest,
  ReleaseDetection,
  RemovalPlan,
  SignInOutcome,
} from '../../electron/contract/sessions'
import { WRONG_API_KEY } from '../../electron/core/accounts/sign-in'
import {
  analystAccount,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import { FAST_POLL, tempFolder, waitForJob } from './exports-helpers'

let sandbox: RecordedSandbox
let beta: RecordedSandbox
let t: TestCore

beforeAll(async () => {
  ;[sandbox, beta] = await Promise.all([
    startRecordedSandbox(),
    startRecordedSandbox({ release: '5.0.0-beta1' }),
  ])
})
afterAll(() => Promise.all([sandbox.close(), beta.close()]))
beforeEach(async () => {
  sandbox.reset()
  t = await startTestCore({ exportBackoff: FAST_POLL })
})
afterEach(() => t.close())

async function addAccount(
  target: { baseUrl: string; apiKey: string } = sandbox,
  over: Record<string, unknown> = {},
): Promise<AccountView> {
  const outcome = await t.ok<SignInOutcome>('accounts.add', analystAccount(target, over))
  if (outcome.status !== 'signedIn') throw new Error('expected a sign-in without a second factor')
  return outcome.account
}

const PEM = tls.rootCertificates[0]

describe('editing an account', () => {
  it('changes label, colour and release and announces the change', async () => {
    const account = await addAccount()
    const view = await t.ok<AccountView>('accounts.update', {
      accountId: account.id,
      label: 'Renamed',
      color: '#112233',
      release: '5.4.2',
    })
    expect(view).toMatchObject({ label: 'Renamed', color: '#112233', release: '5.4.2' })
    const listed = t.events.filter((e) => e.name === 'accounts.changed').at(-1)
      ?.payload as AccountList
    expect(listed.accounts.find((a) => a.id === account.id)?.label).toBe('Renamed')
    // The client follows the release: operations of later releases are refused.
    const refused = await t.err('api.call', { accountId: account.id, op: 'scans.scan_profiles' })
    expect(refused.code).toBe('NOT_IN_RELEASE')
  })

  it('replaces the API key in the keychain and uses it from the next call', async () => {
    const account = await addAccount()
    await t.ok('accounts.update', { accountId: account.id, apiKey: 'not-the-key' })
    expect(await t.vault!.get(account.id, 'api_key')).toBe('not-the-key')
    const test = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: true, apiKeyAccepted: false, message: WRONG_API_KEY })
    await t.ok('accounts.update', { accountId: account.id, apiKey: sandbox.apiKey })
    const fixed = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(fixed).toMatchObject({ apiKeyAccepted: true, session: 'valid' })
    expect(JSON.stringify(t.results)).not.toContain('not-the-key')
  })

  it('sets and removes a CA bundle', async () => {
    const account = await addAccount()
    const set = await t.ok<AccountView>('accounts.update', { accountId: account.id, caBundle: PEM })
    expect(set.hasCaBundle).toBe(true)
    const removed = await t.ok<AccountView>('accounts.update', {
      accountId: account.id,
      caBundle: null,
    })
    expect(removed.hasCaBundle).toBe(false)
    const bad = await t.err('accounts.update', { accountId: account.id, caBundle: 'not a cert' })
    expect(bad.fieldErrors?.caBundle).toBeDefined()
  })

  it('refuses an unknown account', async () => {
    const error = await t.err('accounts.update', { accountId: 'acct-missing', label: 'x' })
    expect(error.code).toBe('UNKNOWN_ACCOUNT')
  })
})

describe('testing the connection', () => {
  it('reports reachability, latency, the API key, the session and the release', async () => {
    const account = await addAccount()
    const test = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({
      reachable: true,
      apiKeyAccepted: true,
      session: 'valid',
      detectedRelease: 'latest',
    })
    expect(test.latencyMs).toBeGreaterThanOrEqual(0)
    expect(test.message).toContain('The session is valid.')
    expect(sandbox.requests).toContainEqual(
      expect.stringMatching(/^GET \/v2\/user\/token_validity → 200/),
    )
    await t.ok('accounts.signOut', { accountId: account.id })
    const out = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(out).toMatchObject({ reachable: true, apiKeyAccepted: true, session: 'none' })
  })

  it('says when the session has ended without pausing the account', async () => {
    const account = await addAccount()
    sandbox.advanceClock(9 * 60 * 60 * 1000)
    const test = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: true, apiKeyAccepted: true, session: 'expired' })
    expect(t.events.filter((e) => e.name === 'accounts.reauthRequired')).toEqual([])
  })

  it('says when the service cannot be reached', async () => {
    const gone = await startRecordedSandbox()
    const account = await addAccount(gone)
    await gone.close()
    const test = await t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: false, latencyMs: null, detectedRelease: null })
    expect(test.message).toContain('could not reach')
  })
})

describe('detecting the release', () => {
  it('recognises an older release before the account is added', async () => {
    const found = await t.ok<ReleaseDetection>('accounts.detectRelease', {
      baseUrl: beta.baseUrl,
      apiKey: beta.apiKey,
    })
    expect(found.release).toBe('5.0.0-beta1')
    expect(found.evidence.at(-1)).toContain('5.0.0-beta1')
    expect(found.evidence.some((l) => l.includes('not there (404)'))).toBe(true)
  })

  it('recognises the release of a stored, signed-in account', async () => {
    const account = await addAccount(beta, { release: '5.0.0-beta1' })
    const found = await t.ok<ReleaseDetection>('accounts.detectRelease', { accountId: account.id })
    expect(found.release).toBe('5.0.0-beta1')
    const latest = await addAccount(sandbox, { label: 'Latest' })
    const again = await t.ok<ReleaseDetection>('accounts.detectRelease', { accountId: latest.id })
    expect(again.release).toBe('latest')
  })

  it('refuses a bad address and a wrong API key with a clear message', async () => {
    const before = sandbox.requests.length
    const bad = await t.err('accounts.detectRelease', { baseUrl: 'ftp://x', apiKey: 'k' })
    expect(bad.code).toBe('VALIDATION')
    expect(bad.fieldErrors?.baseUrl).toEqual(['must start with https:// or http://'])
    expect(sandbox.requests.length).toBe(before)
    const wrong = await t.err('accounts.detectRelease', {
      baseUrl: sandbox.baseUrl,
      apiKey: 'not-the-key',
    })
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_API_KEY })
  })
})

describe('what removing an account deletes', () => {
  it('counts keychain entries, export jobs, ledger entries and the files that stay', async () => {
    const account = await addAccount()
    const folder = tempFolder()
    await t.ok('files.setFolder', { accountId: account.id, folder })
    const empty = await t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(empty).toEqual({
      accountId: account.id,
      label: 'Sandbox analyst',
      keychainEntries: 2,
      exportJobs: 0,
      ledgerEntries: 0,
      cachedRecords: 0,
      drafts: 0,
      filesKept: 0,
    })

    const job = await t.ok<ExportJob>('exports.generate', {
      accountId: account.id,
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'csv',
    })
    await waitForJob(t, account.id, job.id, ['ready'])
    await t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(t, account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    await t.ok('accounts.setRemember', {
      accountId: account.id,
      remember: true,
      password: 'sandbox-password',
    })

    const plan = await t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(plan).toMatchObject({
      keychainEntries: 3,
      exportJobs: 1,
      ledgerEntries: 1,
      filesKept: 1,
    })
    fs.rmSync(done.path!)
    const after = await t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(after.filesKept).toBe(0)
  })
})

describe('opening an account in its own window', () => {
  it('asks the host for a window of that account, and refuses an unknown one', async () => {
    const account = await addAccount()
    const opened = await t.ok('accounts.openWindow', { accountId: account.id })
    expect(opened).toEqual({
      opened: 'url',
      url: `/?account=${encodeURIComponent(account.id)}#/`,
    })
    const error = await t.err('accounts.openWindow', { accountId: 'acct-missing' })
    expect(error.code).toBe('UNKNOWN_ACCOUNT')
  })
})

// Secrets carry a unique marker; after a session of ordinary and failing work, the marker (and
// the session token the service issued) must appear nowhere the renderer, a log or the disk sees.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import type { ExportJob } from '@contract/files'
import type { SignInOutcome } from '@contract/sessions'
import { otpFor } from '../support/otp'
import { analystAccount, bytesOf, signedIn, startTestCore } from './core-helpers'
import { FAST_POLL, recordingHost, tempFolder, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'
import { challengeOf, until } from './sessions-helpers'

const MARK = `CANARY${randomUUID().replace(/-/g, '')}`
const s = useSandboxAndCore({ sandbox: { apiKey: `key-${MARK}` }, each: 'none' })

describe('secrets stay secret', () => {
  it('never shows the API key, password or session token in results, events, logs or the store', async () => {
    const t = await startTestCore()
    const wrongPassword = `pw-${MARK}`
    // failing and succeeding work of every kind
    await t.call('accounts.add', analystAccount(s.sandbox, { password: wrongPassword }))
    await t.call('accounts.add', analystAccount(s.sandbox, { apiKey: `bad-${MARK}` }))
    await t.call('accounts.add', { ...analystAccount(s.sandbox), apiKey: `${MARK}\u0000` })
    const view = signedIn(await t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox)))
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
    // the session is refused: the call waits for one prompt and resumes after sign-in
    s.sandbox.setFaults({ unauthorizedAfter: 1 })
    await call('targets.list')
    const waiting = call('targets.list')
    await until(() => t.events.some((e) => e.name === 'accounts.reauthRequired'))
    s.sandbox.setFaults({ unauthorizedAfter: 0 })
    await t.call('accounts.signIn', { accountId: view.id, password: wrongPassword })
    await t.call('accounts.signIn', { accountId: view.id, password: 'sandbox-password' })
    expect((await waiting).ok).toBe(true)
    const token3 = await t.vault!.get(view.id, 'session_token')

    // a password with the marker, remembered, used by a silent re-sign-in after expiry
    const newPassword = `pw-${MARK}-new`
    await call('user.change_password', {
      body: { current_password: 'sandbox-password', password: newPassword },
    })
    await t.call('accounts.signIn', { accountId: view.id, password: newPassword, remember: true })
    s.sandbox.advanceClock(9 * 60 * 60_000)
    expect((await call('targets.list')).ok).toBe(true)
    const token4 = await t.vault!.get(view.id, 'session_token')
    await t.call('accounts.setRemember', { accountId: view.id, remember: false })
    await t.call('accounts.setRemember', { accountId: view.id, remember: true })

    // an access token: generated, used, offered again, checked and revoked
    await t.call('accounts.accessToken', { accountId: view.id, action: 'generate' })
    const accessToken = await t.vault!.get(view.id, 'access_token')
    expect(accessToken).toBeTruthy()
    await call('targets.list')
    await t.call('accounts.add', {
      ...analystAccount(s.sandbox),
      authMethod: 'access_token',
      password: undefined,
      accessToken,
    })
    await t.call('accounts.add', {
      ...analystAccount(s.sandbox),
      authMethod: 'access_token',
      password: undefined,
      accessToken: `tok-${MARK}`,
    })
    await t.call('accounts.accessToken', { accountId: view.id, action: 'check' })
    await t.call('accounts.accessToken', { accountId: view.id, action: 'revoke' })
    await call('targets.list')

    // a second factor: wrong code, SMS refused, right code
    const from = s.sandbox.lines.length
    const outcome = await t.ok<SignInOutcome>(
      'accounts.add',
      analystAccount(s.sandbox, { username: 'admin@sandbox.test', label: 'Admin' }),
    )
    const challengeId = challengeOf(outcome).challengeId
    await t.call('accounts.secondFactor', { challengeId, method: 'app', code: '000000' })
    await t.call('accounts.sendSms', { challengeId })
    const second = await t.call<SignInOutcome>('accounts.secondFactor', {
      challengeId,
      method: 'app',
      code: otpFor(s.sandbox.logged, 'admin@sandbox.test', from),
    })
    expect(second.ok && second.data.status).toBe('signedIn')
    await t.call('api.call', { accountId: view.id, op: 'auth.sign_in', input: { body: {} } })

    const secrets = [MARK, token!, token2!, token3!, token4!, accessToken!]
    expect(secrets.every((x) => typeof x === 'string' && x.length > 8)).toBe(true)
    expect(new Set(secrets).size).toBe(secrets.length)
    const seen = [...t.results, ...t.events.map((e) => JSON.stringify(e.payload)), ...t.logs].join(
      '\n',
    )
    expect(t.results.length).toBeGreaterThan(30)
    expect(t.events.some((e) => e.name === 'accounts.reauthRequired')).toBe(true)
    const diskWhileOpen = bytesOf(t.dataDir)
    await t.close()
    const diskAfter = bytesOf(t.dataDir)
    for (const secret of secrets) {
      expect(seen).not.toContain(secret)
      expect(diskWhileOpen.includes(Buffer.from(secret))).toBe(false)
      expect(diskAfter.includes(Buffer.from(secret))).toBe(false)
    }
    // the test would notice: the marker did reach the service
    expect(s.sandbox.requests.length).toBeGreaterThan(5)
  })

  it('writes no secret into the data folder, the logs or the files it saves: bulk runs, exports, views, the outbox', async () => {
    s.sandbox.reset() // the first test changed the analyst's password
    const folder = tempFolder('scandesk-canary-files-')
    const host = recordingHost()
    host.userFolders = () => [folder]
    const t = await startTestCore({ host, exportBackoff: FAST_POLL })
    try {
      const password = `pw-${MARK}-files`
      const view = signedIn(await t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox)))
      const call = (op: string, input?: unknown) =>
        t.ok<ApiCallOutput>('api.call', { accountId: view.id, op, input })
      await call('user.change_password', {
        body: { current_password: 'sandbox-password', password },
      })
      await t.ok('accounts.signIn', { accountId: view.id, password, remember: true })
      const token = await t.vault!.get(view.id, 'session_token')
      await t.ok('files.setFolder', { accountId: view.id, folder })

      // A report downloaded and verified, a CSV and a views file saved, a bulk run finished.
      const job = await t.ok<ExportJob>('exports.generate', {
        accountId: view.id,
        kind: 'report',
        resourceId: 'rpt-001',
        format: 'pdf',
      })
      await waitForJob(t, view.id, job.id, ['ready'])
      await t.ok('exports.download', { jobId: job.id })
      expect((await waitForJob(t, view.id, job.id, ['verified', 'failed'])).state).toBe('verified')
      await t.ok('csv.export', {
        accountId: view.id,
        op: 'vulnerabilities.list',
        path: path.join(folder, 'findings.csv'),
      })
      await t.ok('views.export', {
        accountId: view.id,
        content: { format: 'scandesk-saved-views', version: 1, views: [] },
        path: path.join(folder, 'views.json'),
      })
      const findings = (await call('vulnerabilities.list', { query: { per_page: 3 } })).data as {
        data: { id: string }[]
      }
      const run = await t.ok<{ id: string }>('bulk.start', {
        accountId: view.id,
        action: 'exceptions.create',
        body: { kind: 'accepted_risk', reason: 'Canary run', expires_at: '2099-01-01T00:00:00Z' },
        items: findings.data.map((f) => ({ id: f.id })),
      })
      for (let i = 0; i < 500; i++) {
        const got = await t.ok<{ state: string }>('bulk.get', { runId: run.id })
        if (got.state === 'finished') break
        await new Promise((r) => setTimeout(r, 20))
      }
      expect((await t.ok<{ state: string }>('bulk.get', { runId: run.id })).state).toBe('finished')
      // Offline: a safe write waits in the outbox, sealed, and goes out afterwards.
      const notes = (await call('notifications.list')).data as { data: { id: string }[] }
      await t.ok('connectivity.setWorkOffline', { on: true })
      await call('notifications.mark_read', { path: { id: notes.data[0].id } })
      await t.ok('connectivity.setWorkOffline', { on: false })
      await t.ok('accounts.signOut', { accountId: view.id })

      const secrets = [MARK, password, token!]
      expect(token).toBeTruthy()
      const logs = t.logs.join('\n')
      await t.close()
      const saved = bytesOf(folder)
      expect(saved.length).toBeGreaterThan(1000) // the report, the CSV and the views file
      for (const secret of secrets) {
        expect(logs).not.toContain(secret)
        expect(bytesOf(t.dataDir).includes(Buffer.from(secret))).toBe(false)
        expect(saved.includes(Buffer.from(secret))).toBe(false)
      }
    } finally {
      await t.close().catch(() => undefined)
      fs.rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)
})

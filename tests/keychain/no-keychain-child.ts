// Run by keychain-vault.test.ts in a child process whose D-Bus address points nowhere: uses the
// core exactly as the app does and prints what it saw as one JSON line.
import type { AccountView } from '@contract/accounts'
import type { SignInOutcome } from '@contract/sessions'
import type { AppInfo } from '@contract/channels'
import type { Result } from '@contract/errors'
import type { CacheStatus } from '@contract/offline'
import { createKeychainVault } from '../../electron/core/accounts/keychain-vault'
import { ResilientVault } from '../../electron/core/accounts/resilient-vault'
import { createCore } from '../../electron/core/index'
import { startSandbox } from '../../sandbox/server'

const dataDir = process.env.CHILD_DATA_DIR!
const apiKey = process.env.CHILD_API_KEY!

async function main() {
  const sandbox = await startSandbox({ port: 0, apiKey, log: () => undefined })
  const unwrap = <T>(text: string): T => {
    const r = JSON.parse(text) as Result<T>
    if (!r.ok) throw new Error(JSON.stringify(r.error))
    return r.data
  }
  // 1. the default vault, as main builds it
  const plain = await createCore({ dataDir: `${dataDir}/default`, mode: 'browser', version: 't' })
  const info = unwrap<AppInfo>(await plain.dispatch('app.info', {}, { origin: 'browser' }))
  await plain.close()
  // 2. the same resilient vault, held here so the test can learn the session token
  const vault = new ResilientVault({ keychain: () => createKeychainVault({ timeoutMs: 3_000 }) })
  const core = await createCore({
    dataDir: `${dataDir}/store`,
    mode: 'browser',
    version: 't',
    vault,
  })
  const d = async <T>(channel: string, payload: unknown) =>
    unwrap<T>(await core.dispatch(channel, payload, { origin: 'browser' }))
  const outcome = await d<SignInOutcome>('accounts.add', {
    label: 'No keychain',
    baseUrl: sandbox.baseUrl,
    apiKey,
    username: 'analyst@sandbox.test',
    password: 'sandbox-password',
    release: 'latest',
    color: '#123456',
  })
  if (outcome.status !== 'signedIn') throw new Error('the analyst has no second factor')
  const view: AccountView = outcome.account
  await d('api.call', { accountId: view.id, op: 'targets.list' })
  // Without the keychain there is no key for the offline copy: nothing of it is written.
  const cache = await d<CacheStatus>('cache.status', { accountId: view.id })
  // Drafts are sealed with the account's key, which only the keychain may hold: kept in memory.
  const draft = JSON.parse(
    await core.dispatch(
      'drafts.save',
      {
        accountId: view.id,
        kind: 'saq',
        key: 'nokc',
        data: { explanation: 'NOKC-draft-explanation' },
      },
      { origin: 'browser' },
    ),
  ) as Result<unknown>
  const token = await vault.get(view.id, 'session_token')
  await core.close()
  await sandbox.close()
  process.stdout.write(
    `${JSON.stringify({ info, view, vaultStatus: await vault.status(), token, cache, draft })}\n`,
  )
}

main().catch((err: unknown) => {
  process.stderr.write(`child failed: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})

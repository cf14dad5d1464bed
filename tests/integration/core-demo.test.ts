import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList, DemoDirectory } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import type { DemoService } from '../../electron/core/index'
import { startDemoService } from '../../electron/main/demo'
import { signedIn, startTestCore, whoAmI, type TestCore } from './core-helpers'

const open: TestCore[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()))
})

/** Starts demo services as the app does; with `dataFile`, each keeps its state there (sessions too). */
function demoStarter(dataFile?: string) {
  const started: DemoService[] = []
  const start = async () => {
    const s = await startDemoService({ log: () => undefined, ...(dataFile ? { dataFile } : {}) })
    started.push(s)
    return s
  }
  return { start, started }
}

async function core(dataDir: string, vault: MemoryVault, demo: () => Promise<DemoService>) {
  const t = await startTestCore({ dataDir, vault, demo })
  open.push(t)
  return t
}

describe('trying the demo service', () => {
  it('starts the service once, adds the demo account and makes it active', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-demo-'))
    const demo = demoStarter()
    const t = await core(dir, new MemoryVault(), demo.start)
    const view = await t.ok<AccountView>('demo.start')
    expect(view).toMatchObject({
      label: 'Demo service',
      isDemo: true,
      release: 'latest',
      signedIn: true,
      baseUrl: demo.started[0].baseUrl,
    })
    const again = await t.ok<AccountView>('demo.start')
    expect(again.id).toBe(view.id)
    expect(demo.started).toHaveLength(1)
    const list = await t.ok<AccountList>('accounts.list')
    expect(list).toMatchObject({ activeId: view.id })
    expect(list.accounts).toHaveLength(1)
    expect(t.events.some((e) => e.name === 'accounts.changed')).toBe(true)
    await t.ok('api.call', { accountId: view.id, op: 'targets.list' })
  })

  it('reconnects the demo account to the new port in the next run, on first use', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-demo-'))
    const vault = new MemoryVault()
    const first = demoStarter()
    const run1 = await core(dir, vault, first.start)
    const view = await run1.ok<AccountView>('demo.start')
    await run1.close()
    open.splice(open.indexOf(run1), 1)

    const second = demoStarter()
    const run2 = await core(dir, vault, second.start)
    expect(second.started).toHaveLength(0)
    await run2.ok('api.call', { accountId: view.id, op: 'targets.list' })
    expect(second.started).toHaveLength(1)
    const list = await run2.ok<AccountList>('accounts.list')
    expect(list.accounts).toHaveLength(1)
    expect(list.accounts[0]).toMatchObject({ id: view.id, baseUrl: second.started[0].baseUrl })
    expect(list.accounts[0].baseUrl).not.toBe(first.started[0].baseUrl)
  })

  it('takes another user of the demo service, with its key, to the new port in the next run', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-demo-'))
    const vault = new MemoryVault()
    const state = path.join(dir, 'demo-sandbox.json')
    const first = demoStarter(state)
    const run1 = await core(dir, vault, first.start)
    const demoView = await run1.ok<AccountView>('demo.start')
    const manager = signedIn(
      await run1.ok<SignInOutcome>('accounts.add', {
        label: 'Demo manager',
        baseUrl: demoView.baseUrl,
        apiKeyFrom: demoView.id,
        username: 'manager@sandbox.test',
        password: 'sandbox-password',
        release: 'latest',
        color: '#3366ff',
      }),
    )
    expect(await whoAmI(run1, manager.id)).toBe('manager@sandbox.test')
    await run1.close()
    open.splice(open.indexOf(run1), 1)

    // The manager is used first in the next run: the demo starts, and both accounts move to it.
    const second = demoStarter(state)
    const run2 = await core(dir, vault, second.start)
    expect(await whoAmI(run2, manager.id)).toBe('manager@sandbox.test')
    expect(second.started).toHaveLength(1)
    const list = await run2.ok<AccountList>('accounts.list')
    expect(list.accounts.map((a) => [a.id, a.baseUrl])).toEqual([
      [demoView.id, second.started[0].baseUrl],
      [manager.id, second.started[0].baseUrl],
    ])
  })

  it('lists the demo’s other users without their password, and adds one in a click', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-demo-'))
    const demo = demoStarter()
    const t = await core(dir, new MemoryVault(), demo.start)
    expect(await t.ok('demo.users')).toBeNull() // no demo account yet
    const demoView = await t.ok<AccountView>('demo.start')
    const directory = await t.ok<DemoDirectory>('demo.users')
    expect(directory.baseUrl).toBe(demoView.baseUrl)
    expect(directory.users.map((u) => [u.username, u.twoFactor])).toEqual([
      ['analyst@sandbox.test', 'none'],
      ['manager@sandbox.test', 'none'],
      ['admin@sandbox.test', 'app'],
      ['sms@sandbox.test', 'sms'],
    ])
    expect(JSON.stringify(directory)).not.toContain('sandbox-password')

    const analyst = signedIn(
      await t.ok<SignInOutcome>('demo.addUser', { username: 'analyst@sandbox.test' }),
    )
    expect(analyst).toMatchObject({ label: 'Demo analyst', baseUrl: demoView.baseUrl })
    expect(await whoAmI(t, analyst.id)).toBe('analyst@sandbox.test')
    // the administrator with an authenticator app: a challenge to finish, nothing stored yet
    const admin = await t.ok<SignInOutcome>('demo.addUser', { username: 'admin@sandbox.test' })
    expect(admin.status).toBe('challenge')
    expect((await t.ok<AccountList>('accounts.list')).accounts).toHaveLength(2)
    // once added, twice is refused; the demo's own user and strangers are not "other users"
    expect((await t.err('demo.addUser', { username: 'analyst@sandbox.test' })).message).toMatch(
      /already/i,
    )
    for (const username of ['demo@sandbox.test', 'nobody@sandbox.test'])
      expect((await t.err('demo.addUser', { username })).code).toBe('NOT_FOUND')
  })

  it('says plainly when this build has no demo service', async () => {
    const t = await startTestCore()
    open.push(t)
    const error = await t.err('demo.start')
    expect(error.code).toBe('BAD_REQUEST')
    expect(error.message).toMatch(/demo service/)
  })
})

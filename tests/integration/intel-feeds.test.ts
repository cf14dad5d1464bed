// Update now (issue 37 §1) through the real core over HTTP against the sandbox's own feeds: an
// analyst's account with the feed addresses pointed at the sandbox (a mirror on this computer), the
// later edition replacing the first with the first kept, "already current", Work offline; the demo
// account reading the sandbox's feeds by itself; and a fetch through a recording proxy.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { DEFAULT_FEED_ADDRESS, type FeedAddressView } from '@contract/intel/feed-address'
import type { FeedUpdate, IntelPack } from '@contract/intel/packs'
import { PacksRepo } from '../../electron/core/intel/packs-repo'
import { updateFeed } from '../../electron/core/intel/feed-update'
import { openDatabase } from '../../electron/core/store/database'
import { startDemoService } from '../../electron/main/demo'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { tempFolder } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })
let t: TestCore
let account: AccountView

beforeAll(async () => {
  t = await startTestCore()
  account = await addAnalyst(t, s.sandbox)
})
afterAll(() => t?.close())

const feedUrl = (name: string) => `${s.sandbox.baseUrl}/feeds/${name}`
const setFeed = (feed: 'kev' | 'epss', address: string | null) =>
  t.ok<FeedAddressView[]>('intel.setFeed', { accountId: account.id, feed, address })
const update = (feed: 'kev' | 'epss') =>
  t.ok<FeedUpdate>('intel.update', { accountId: account.id, feed })
const packs = () => t.ok<IntelPack[]>('intel.packs', {})

describe('Update now', () => {
  it('reads the public addresses by default and refuses a plain-http mirror elsewhere', async () => {
    const views = await t.ok<FeedAddressView[]>('intel.feeds', { accountId: account.id })
    expect(views.map((v) => [v.feed, v.address, v.saved, v.demo])).toEqual([
      ['kev', DEFAULT_FEED_ADDRESS.kev, null, false],
      ['epss', DEFAULT_FEED_ADDRESS.epss, null, false],
    ])
    const err = await t.err('intel.setFeed', {
      accountId: account.id,
      feed: 'kev',
      address: 'http://mirror.example/kev.json',
    })
    expect(err.code).toBe('VALIDATION')
    expect(err.fieldErrors?.address?.[0]).toContain('must start with https://')
  })

  it('updates KEV, then the later edition becomes current and the first is kept', async () => {
    await setFeed('kev', feedUrl('kev.json'))
    const first = await update('kev')
    expect(first).toMatchObject({
      status: 'updated',
      pack: { feed: 'kev', source: feedUrl('kev.json'), current: true },
    })
    expect(await update('kev')).toEqual({ status: 'current', pack: first.pack })

    const views = await setFeed('kev', feedUrl('kev-later.json'))
    expect(views[0]).toMatchObject({ address: feedUrl('kev-later.json'), demo: false })
    const later = await update('kev')
    expect(later.status).toBe('updated')
    expect(later.pack.edition).not.toBe(first.pack.edition)
    expect(later.pack.published > first.pack.published).toBe(true)
    const kev = (await packs()).filter((p) => p.feed === 'kev')
    expect(kev.map((p) => [p.id, p.current])).toEqual([
      [later.pack.id, true],
      [first.pack.id, false],
    ])
  })

  it('updates EPSS from the gzipped later scores', async () => {
    await setFeed('epss', feedUrl('epss-later.csv.gz'))
    const { status, pack } = await update('epss')
    expect(status).toBe('updated')
    expect(pack).toMatchObject({ feed: 'epss', edition: 'v2025.03.14', current: true })
    expect(pack.entries).toBeGreaterThan(1_000)
  })

  it('refuses an address that answers the other feed, and says Work offline, packs unchanged', async () => {
    const before = await packs()
    await setFeed('kev', feedUrl('epss.csv'))
    const wrong = await t.err('intel.update', { accountId: account.id, feed: 'kev' })
    expect(wrong.message).toContain('The file is FIRST EPSS, not CISA KEV.')
    await setFeed('kev', feedUrl('kev.json'))
    await t.ok('connectivity.setWorkOffline', { on: true })
    try {
      const offline = await t.err('intel.update', { accountId: account.id, feed: 'kev' })
      expect(offline.code).toBe('OFFLINE')
      expect(offline.message).toMatch(/^CISA KEV was not updated .*The packs are unchanged\.$/)
    } finally {
      await t.ok('connectivity.setWorkOffline', { on: false })
    }
    expect(await packs()).toEqual(before)
  })
})

describe('Update now on the demo service', () => {
  it('reads the sandbox’s own feeds, whatever address is saved', async () => {
    const demo = await startTestCore({
      demo: () => startDemoService({ log: () => undefined }),
    })
    try {
      const view = await demo.ok<AccountView>('demo.start')
      await demo.ok('intel.setFeed', {
        accountId: view.id,
        feed: 'kev',
        address: 'https://mirror.example/kev.json',
      })
      const views = await demo.ok<FeedAddressView[]>('intel.feeds', { accountId: view.id })
      expect(views.map((v) => [v.address, v.demo])).toEqual([
        [`${view.baseUrl}/feeds/kev.json`, true],
        [`${view.baseUrl}/feeds/epss.csv.gz`, true],
      ])
      const got = await demo.ok<FeedUpdate>('intel.update', { accountId: view.id, feed: 'epss' })
      expect(got).toMatchObject({
        status: 'updated',
        pack: { feed: 'epss', source: `${view.baseUrl}/feeds/epss.csv.gz` },
      })
    } finally {
      await demo.close()
    }
  })
})

describe('a feed fetched through an account’s proxy', () => {
  it('goes through the proxy with no credential, and stores the pack', async () => {
    const seen: { url: string; headers: http.IncomingHttpHeaders }[] = []
    const proxy = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers })
      http
        .request(req.url!, { headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        .end()
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const dir = tempFolder('scandesk-feed-proxy-')
    const db = openDatabase(dir)
    try {
      const repo = new PacksRepo(db)
      const port = (proxy.address() as AddressInfo).port
      const got = await updateFeed(
        {
          packs: repo,
          now: () => new Date(),
          download: { proxy: { protocol: 'http', host: '127.0.0.1', port } },
        },
        'kev',
        feedUrl('kev-later.json'),
      )
      expect(got).toMatchObject({ status: 'updated', pack: { source: feedUrl('kev-later.json') } })
      expect(seen.map((r) => r.url)).toEqual([feedUrl('kev-later.json')])
      for (const name of ['authorization', 'x-api-key', 'cookie'])
        expect(seen[0]!.headers[name]).toBeUndefined()
      expect(repo.list()).toHaveLength(1)
    } finally {
      db.close()
      fs.rmSync(dir, { recursive: true, force: true })
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})

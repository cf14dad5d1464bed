// Update now, one feed at a time, against a loopback server answering what a feed's address might:
// the packs change only when a whole, right file arrives, and every refusal says so.
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { DEFAULT_FEED_ADDRESS } from '@contract/intel/feed-address'
import { startTestServer, type TestServer } from '../http/test-server'
import { SettingsRepo } from '../store/settings-repo'
import { useTestDb } from '../store/test-db'
import { feedAddresses, saveFeedAddress, updateFeed } from './feed-update'
import { PacksRepo } from './packs-repo'

const kev = (version: string, cves: string[]) =>
  JSON.stringify({
    catalogVersion: version,
    dateReleased: `${version.replaceAll('.', '-')}T14:00:00.000Z`,
    count: cves.length,
    vulnerabilities: cves.map((cve) => ({
      cveID: cve,
      vendorProject: 'Example',
      product: 'Example',
      vulnerabilityName: `Example ${cve}`,
      dateAdded: '2026-11-20',
      dueDate: '2026-12-11',
      knownRansomwareCampaignUse: 'Unknown',
    })),
  })
const EPSS =
  '#model_version:v2025.03.14,score_date:2026-11-30T00:00:00+0000\ncve,epss,percentile\nCVE-2024-0001,0.91,0.99\nCVE-2024-0002,0.01,0.20\n'

const db = useTestDb('scandesk-feed-update-')
let server: TestServer
let packs: PacksRepo
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  packs = new PacksRepo(db.db)
  server.seen.length = 0
})

const serve = (body: string | Buffer, type = 'application/json') =>
  server.handle((_req, res) => res.writeHead(200, { 'content-type': type }).end(body))
const update = (feed: 'kev' | 'epss', address = `${server.baseUrl}/feed`) =>
  updateFeed({ packs, now: () => new Date('2026-12-01T08:00:00Z'), download: {} }, feed, address)
async function refusal(work: Promise<unknown>): Promise<AppFailure['error']> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return (err as AppFailure).error
}

describe('updating a feed from its address', () => {
  it('stores the pack with the address as its source, then says the same file is current', async () => {
    serve(kev('2026.11.30', ['CVE-2024-0001']))
    const first = await update('kev')
    expect(first).toMatchObject({
      status: 'updated',
      pack: { feed: 'kev', edition: '2026.11.30', source: `${server.baseUrl}/feed`, current: true },
    })
    expect(first.pack.importedAt).toBe('2026-12-01T08:00:00.000Z')
    expect(await update('kev')).toEqual({ status: 'current', pack: first.pack })
    expect(packs.list()).toHaveLength(1)
  })

  it('undoes gzip for EPSS and keeps the SHA-256 of the bytes as fetched', async () => {
    const gz = gzipSync(EPSS)
    serve(gz, 'application/gzip')
    const { pack } = await update('epss')
    expect(pack).toMatchObject({
      feed: 'epss',
      edition: 'v2025.03.14',
      entries: 2,
      bytes: gz.length,
    })
    expect(pack.sha256).toBe(createHash('sha256').update(gz).digest('hex'))
  })

  it('leaves the packs unchanged when the answer is malformed, of the other feed or cut off', async () => {
    serve(kev('2026.11.30', ['CVE-2024-0001']))
    const kept = (await update('kev')).pack
    const broken = JSON.stringify({ ...JSON.parse(kev('2026.12.01', ['CVE-2024-0002'])), count: 5 })
    serve(broken)
    const malformed = await refusal(update('kev'))
    expect(malformed.code).toBe('VALIDATION')
    expect(malformed.message).toMatch(
      new RegExp(
        `^CISA KEV was not updated from ${server.baseUrl}/feed: .*count.* The packs are unchanged\\.$`,
      ),
    )
    serve(EPSS, 'text/csv')
    expect((await refusal(update('kev'))).message).toContain(
      'The file is FIRST EPSS, not CISA KEV.',
    )
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-length': '5000' })
      res.end('{"catalogVersion"')
    })
    expect((await refusal(update('kev'))).code).toBe('INTEGRITY_FAILED')
    serve('<html>not a feed</html>', 'text/html')
    expect((await refusal(update('kev'))).message).toContain('neither a CISA KEV catalog')
    expect(packs.list()).toEqual([kept])
  })

  it('refuses an address it may not fetch before sending anything', async () => {
    const err = await refusal(update('kev', 'http://mirror.example/kev.json'))
    expect(err.code).toBe('VALIDATION')
    expect(err.message).toMatch(/must start with https:\/\//)
    expect(server.seen).toHaveLength(0)
  })
})

describe('the feeds’ addresses', () => {
  it('are the public ones until a mirror is saved, and the sandbox’s for the demo service', () => {
    const settings = new SettingsRepo(db.db)
    expect(feedAddresses(settings, null).map((v) => v.address)).toEqual([
      DEFAULT_FEED_ADDRESS.kev,
      DEFAULT_FEED_ADDRESS.epss,
    ])
    saveFeedAddress(settings, 'kev', 'https://mirror.example/kev.json')
    expect(feedAddresses(settings, null)[0]).toEqual({
      feed: 'kev',
      address: 'https://mirror.example/kev.json',
      saved: 'https://mirror.example/kev.json',
      defaultAddress: DEFAULT_FEED_ADDRESS.kev,
      demo: false,
    })
    // the demo never reaches the internet, nor a mirror: its feeds are the sandbox's own
    expect(
      feedAddresses(settings, 'http://127.0.0.1:4010').map((v) => [v.address, v.demo]),
    ).toEqual([
      ['http://127.0.0.1:4010/feeds/kev.json', true],
      ['http://127.0.0.1:4010/feeds/epss.csv.gz', true],
    ])
    saveFeedAddress(settings, 'kev', null)
    expect(feedAddresses(settings, null)[0]!.saved).toBeNull()
    // a value that no longer passes (stored by hand) counts as none
    settings.set('intel_feed_address_epss', 'http://mirror.example/e.csv')
    expect(feedAddresses(settings, null)[1]!.address).toBe(DEFAULT_FEED_ADDRESS.epss)
  })
})

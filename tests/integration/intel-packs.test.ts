// Exploit-intelligence packs (issue 37 §1) through the real core and the sandbox's own feeds over
// HTTP: a KEV catalog and EPSS scores imported from files in the user's folder (browser mode's
// typed path, judged like every other), kept with their provenance across a restart, refused with
// the wrong line or field named and nothing half-imported.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { IntelPack } from '@contract/intel/packs'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { recordingHost, tempFolder } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })

let root: string
let home: string
let t: TestCore
let account: AccountView

async function start(dataDir?: string): Promise<void> {
  const host = recordingHost()
  host.userFolders = () => [home]
  t = await startTestCore({ mode: 'browser', host, ...(dataDir ? { dataDir } : {}) })
}

beforeAll(async () => {
  root = tempFolder('scandesk-intel-')
  home = path.join(root, 'home')
  fs.mkdirSync(home)
  await start(path.join(root, 'data'))
  account = await addAnalyst(t, s.sandbox)
})
afterAll(async () => {
  await t?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** The sandbox feed at `feed` saved in the home folder as `name`; its path. */
async function saveFeed(feed: string, name: string): Promise<string> {
  const res = await fetch(`${s.sandbox.baseUrl}/feeds/${feed}`)
  expect(res.status).toBe(200)
  const file = path.join(home, name)
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()))
  return file
}
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')
const imported = async (file: string) =>
  (
    await t.ok<{ imported: true; pack: IntelPack }>('intel.import', {
      accountId: account.id,
      path: file,
    })
  ).pack

describe('exploit-intelligence packs', () => {
  it('imports KEV and gzipped EPSS files from the sandbox’s feeds, with their provenance', async () => {
    expect(await t.ok('intel.packs', {})).toEqual([])
    const kevFile = await saveFeed('kev.json', 'known_exploited_vulnerabilities.json')
    const kev = await imported(kevFile)
    expect(kev).toMatchObject({
      feed: 'kev',
      current: true,
      source: kevFile,
      sha256: sha256(kevFile),
    })
    expect(kev.edition).toMatch(/^\d{4}\.\d{2}\.\d{2}$/)
    expect(kev.entries).toBe(JSON.parse(fs.readFileSync(kevFile, 'utf8')).count)

    const epssFile = await saveFeed('epss.csv.gz', 'epss_scores.csv.gz')
    const epss = await imported(epssFile)
    expect(epss).toMatchObject({ feed: 'epss', edition: 'v2025.03.14', sha256: sha256(epssFile) })
    expect(epss.bytes).toBe(fs.statSync(epssFile).size)
    expect(epss.entries).toBeGreaterThan(1_000)
    // the same file again is the same pack, not a second one
    expect(await imported(epssFile)).toEqual(epss)
    expect((await t.ok<IntelPack[]>('intel.packs', {})).map((p) => p.id).sort()).toEqual(
      [kev.id, epss.id].sort(),
    )
  })

  it('makes the later edition current and keeps the one before it, across a restart', async () => {
    const later = await imported(await saveFeed('kev-later.json', 'kev-later.json'))
    const third = await imported(await saveFeed('epss-later.csv', 'epss-later.csv'))
    await t.close()
    await start(path.join(root, 'data'))
    const packs = await t.ok<IntelPack[]>('intel.packs', {})
    expect(
      packs
        .filter((p) => p.current)
        .map((p) => p.id)
        .sort(),
    ).toEqual([later.id, third.id].sort())
    expect(packs.filter((p) => p.feed === 'kev')).toHaveLength(2)
    expect(packs.filter((p) => p.feed === 'epss')).toHaveLength(2)
  })

  it.each([
    [
      'a KEV file with an impossible date',
      'bad-kev.json',
      () => {
        const text = fs.readFileSync(path.join(home, 'kev-later.json'), 'utf8')
        return text.replace(/"dueDate": "\d{4}-\d{2}-\d{2}"/, '"dueDate": "2026-02-30"')
      },
      /vulnerabilities\[0\]\.dueDate is not a real calendar date\. Nothing was imported\./,
    ],
    [
      'an EPSS file cut mid-line',
      'cut.csv.gz',
      () => {
        const text = fs.readFileSync(path.join(home, 'epss-later.csv'), 'utf8')
        return gzipSync(text.slice(0, text.indexOf('\n', 5_000) + 14))
      },
      /The EPSS file's line \d+ has 1 field, not 3\. Nothing was imported\./,
    ],
    [
      'a file of another kind',
      'notes.txt',
      () => 'cve,epss\n',
      /neither a CISA KEV catalog \(JSON\) nor FIRST EPSS scores/,
    ],
    [
      'a gzip that does not unpack',
      'broken.csv.gz',
      () => Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]),
      /does not unpack/,
    ],
  ])(
    'refuses %s, naming what is wrong, and keeps the packs as they were',
    async (_what, name, body, message) => {
      const before = await t.ok<IntelPack[]>('intel.packs', {})
      const file = path.join(home, name)
      fs.writeFileSync(file, body())
      const err = await t.err('intel.import', { accountId: account.id, path: file })
      expect(err.code).toBe('VALIDATION')
      expect(err.message).toMatch(message)
      expect(await t.ok('intel.packs', {})).toEqual(before)
    },
  )

  it('judges the typed path like every other: nothing outside the user’s folders', async () => {
    const outside = path.join(root, 'elsewhere.json')
    fs.writeFileSync(outside, fs.readFileSync(path.join(home, 'kev-later.json')))
    const err = await t.err('intel.import', { accountId: account.id, path: outside })
    expect(err.code).toBe('FORBIDDEN')
    expect(await t.ok('intel.import', { accountId: account.id })).toMatchObject({
      imported: false,
      suggestedFolder: home,
    })
  })
})

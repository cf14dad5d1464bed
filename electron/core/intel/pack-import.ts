// Importing an exploit-intelligence pack from a file the user chose (issue 37 §1): a KEV catalog
// (JSON) or EPSS scores (CSV), gzipped or not, told apart by their content, parsed whole and then
// stored in one transaction: a refused file leaves the packs as they were.
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { AppFailure, fail } from '@contract/errors'
import { parseEpssScores } from '@contract/intel/epss'
import { parseKevCatalog } from '@contract/intel/kev'
import { FEED_LABEL, MAX_PACK_FILE_BYTES, type Feed, type IntelPack } from '@contract/intel/packs'
import { readChosenFile, type ChosenFileDeps } from '../files/chosen-file'
import type { PackOrigin, PacksRepo, ParsedPack } from './packs-repo'

const unzip = promisify(gunzip)
const MIB = MAX_PACK_FILE_BYTES / 1024 / 1024

/** The text of a pack file: gzip undone (bounded), a byte-order mark dropped. */
export async function packText(bytes: Buffer): Promise<string> {
  let plain = bytes
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    plain = await unzip(bytes, { maxOutputLength: MAX_PACK_FILE_BYTES }).catch((err: unknown) => {
      const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      throw new AppFailure({
        code: tooLarge ? 'TOO_LARGE' : 'VALIDATION',
        message: tooLarge
          ? `This file is larger than ${MIB} MiB once unpacked: it is not a KEV or EPSS file. Nothing was imported.`
          : 'This file looks gzipped but does not unpack. Nothing was imported.',
      })
    })
  }
  const text = plain.toString('utf8')
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** The pack a file's text holds, told by its content; refused with the parser's words. */
export function parsePack(text: string): ParsedPack {
  const start = text.trimStart()
  if (start.startsWith('{')) {
    const kev = parseKevCatalog(text)
    if (!kev.ok) fail('VALIDATION', `${kev.problem.message} Nothing was imported.`)
    return { feed: 'kev', catalog: kev.catalog }
  }
  if (start.startsWith('#model_version')) {
    const epss = parseEpssScores(text)
    if (!epss.ok) fail('VALIDATION', `${epss.problem.message} Nothing was imported.`)
    return { feed: 'epss', scores: epss.scores }
  }
  return fail(
    'VALIDATION',
    'This file is neither a CISA KEV catalog (JSON) nor FIRST EPSS scores (CSV). Nothing was imported.',
  )
}

/**
 * Stores a pack's bytes unless its feed's current pack is the same file (`already`); returns the
 * pack. With `expected`, a file of the other feed is refused (an address that answers the wrong
 * feed).
 */
export async function storePack(
  repo: PacksRepo,
  bytes: Buffer,
  origin: Omit<PackOrigin, 'sha256' | 'bytes'>,
  expected?: Feed,
): Promise<{ pack: IntelPack; already: boolean }> {
  const pack = parsePack(await packText(bytes))
  if (expected && pack.feed !== expected)
    fail(
      'VALIDATION',
      `The file is ${FEED_LABEL[pack.feed]}, not ${FEED_LABEL[expected]}. Nothing was imported.`,
    )
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const same = repo.list().find((p) => p.current && p.feed === pack.feed && p.sha256 === sha256)
  if (same) return { pack: same, already: true }
  return { pack: repo.save(pack, { ...origin, sha256, bytes: bytes.length }), already: false }
}

/** intel.import: the pack in the file the user chose. */
export async function importPackFile(
  deps: ChosenFileDeps & { packs: PacksRepo; now(): Date },
  req: { accountId: string; path?: string },
): Promise<{ imported: true; pack: IntelPack } | { imported: false; suggestedFolder?: string }> {
  const chosen = await readChosenFile(deps, req, {
    what: 'KEV or EPSS file',
    pickTitle: 'Choose a CISA KEV catalog or FIRST EPSS scores file',
    maxBytes: MAX_PACK_FILE_BYTES,
    tooLarge: `This file is larger than ${MIB} MiB: it is not a KEV or EPSS file. Nothing was imported.`,
  })
  if (!chosen.read) return { imported: false, ...chosen }
  const { pack } = await storePack(deps.packs, chosen.bytes, {
    source: chosen.path,
    importedAt: deps.now().toISOString(),
  })
  return { imported: true, pack }
}

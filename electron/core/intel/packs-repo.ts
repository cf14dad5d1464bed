// The exploit-intelligence packs in the local store (migration 19): their provenance and rows.
import type { EpssScore, EpssScores } from '@contract/intel/epss'
import type { KevCatalog, KevEntry } from '@contract/intel/kev'
import type { Feed, IntelPack } from '@contract/intel/packs'
import type { Db } from '../store/database'

interface PackRow {
  id: number
  feed: Feed
  edition: string
  published: string
  sha256: string
  bytes: number
  entries: number
  imported_at: string
  source: string
}

/** Where a pack's file came from, as recorded with it. */
export interface PackOrigin {
  sha256: string
  bytes: number
  source: string
  importedAt: string
}

/** A parsed pack, ready to be stored. */
export type ParsedPack = { feed: 'kev'; catalog: KevCatalog } | { feed: 'epss'; scores: EpssScores }

/** The intel_packs, intel_kev and intel_epss tables. */
export class PacksRepo {
  constructor(private readonly db: Db) {}

  /** Every pack kept, newest first within each feed; `current` marks the newest of each. */
  list(): IntelPack[] {
    const rows = this.db
      .prepare('SELECT * FROM intel_packs ORDER BY feed, id DESC')
      .all() as PackRow[]
    const seen = new Set<Feed>()
    return rows.map((r) => {
      const current = !seen.has(r.feed)
      seen.add(r.feed)
      return {
        id: r.id,
        feed: r.feed,
        edition: r.edition,
        published: r.published,
        sha256: r.sha256,
        bytes: r.bytes,
        entries: r.entries,
        importedAt: r.imported_at,
        source: r.source,
        current,
      }
    })
  }

  /**
   * Stores a pack in one transaction (all of its rows or none) as its feed's current one, keeps
   * the pack that was current before it, and removes older ones. Returns the new pack.
   */
  save(pack: ParsedPack, origin: PackOrigin): IntelPack {
    const meta =
      pack.feed === 'kev'
        ? {
            edition: pack.catalog.edition,
            published: pack.catalog.released,
            entries: pack.catalog.entries.length,
          }
        : {
            edition: pack.scores.model,
            published: pack.scores.scoreDate,
            entries: pack.scores.scores.size,
          }
    const id = this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare(
          `INSERT INTO intel_packs (feed, edition, published, sha256, bytes, entries, imported_at, source)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          pack.feed,
          meta.edition,
          meta.published,
          origin.sha256,
          origin.bytes,
          meta.entries,
          origin.importedAt,
          origin.source,
        )
      const packId = Number(lastInsertRowid)
      if (pack.feed === 'kev') {
        const insert = this.db.prepare(
          'INSERT INTO intel_kev (pack_id, cve, date_added, due_date, ransomware, name) VALUES (?, ?, ?, ?, ?, ?)',
        )
        for (const e of pack.catalog.entries)
          insert.run(packId, e.cve, e.dateAdded, e.dueDate, e.ransomware ? 1 : 0, e.name)
      } else {
        const insert = this.db.prepare(
          'INSERT INTO intel_epss (pack_id, cve, epss, percentile) VALUES (?, ?, ?, ?)',
        )
        for (const [cve, s] of pack.scores.scores) insert.run(packId, cve, s.epss, s.percentile)
      }
      // Keep this pack and the one before it.
      this.db
        .prepare(
          `DELETE FROM intel_packs WHERE feed = ? AND id NOT IN
             (SELECT id FROM intel_packs WHERE feed = ? ORDER BY id DESC LIMIT 2)`,
        )
        .run(pack.feed, pack.feed)
      return packId
    })()
    return this.list().find((p) => p.id === id)!
  }

  /** The KEV entries of pack `packId`, by CVE. */
  kevEntries(packId: number): Map<string, KevEntry> {
    const rows = this.db
      .prepare(
        'SELECT cve, date_added, due_date, ransomware, name FROM intel_kev WHERE pack_id = ?',
      )
      .all(packId) as KevRow[]
    return kevByCve(rows)
  }

  /** The KEV entries of pack `packId` for the CVEs of `cves` only (a page's findings), by CVE. */
  kevFor(packId: number, cves: readonly string[]): Map<string, KevEntry> {
    const rows = this.db
      .prepare(
        `SELECT cve, date_added, due_date, ransomware, name FROM intel_kev
         WHERE pack_id = ? AND cve IN (SELECT value FROM json_each(?))`,
      )
      .all(packId, JSON.stringify(cves)) as KevRow[]
    return kevByCve(rows)
  }

  /** The EPSS scores of pack `packId` for the CVEs of `cves` only, by CVE. */
  epssFor(packId: number, cves: readonly string[]): Map<string, EpssScore> {
    const rows = this.db
      .prepare(
        `SELECT cve, epss, percentile FROM intel_epss
         WHERE pack_id = ? AND cve IN (SELECT value FROM json_each(?))`,
      )
      .all(packId, JSON.stringify(cves)) as { cve: string; epss: number; percentile: number }[]
    return new Map(rows.map((r) => [r.cve, { epss: r.epss, percentile: r.percentile }]))
  }

  /** The EPSS scores of pack `packId`, by CVE. */
  epssScores(packId: number): Map<string, EpssScore> {
    const rows = this.db
      .prepare('SELECT cve, epss, percentile FROM intel_epss WHERE pack_id = ?')
      .all(packId) as { cve: string; epss: number; percentile: number }[]
    return new Map(rows.map((r) => [r.cve, { epss: r.epss, percentile: r.percentile }]))
  }
}

/** A row of intel_kev as read. */
interface KevRow {
  cve: string
  date_added: string
  due_date: string
  ransomware: number
  name: string | null
}

/** KEV entries by CVE, from their rows. */
function kevByCve(rows: readonly KevRow[]): Map<string, KevEntry> {
  return new Map(
    rows.map((r) => [
      r.cve,
      {
        cve: r.cve,
        dateAdded: r.date_added,
        dueDate: r.due_date,
        ransomware: r.ransomware === 1,
        name: r.name,
      },
    ]),
  )
}

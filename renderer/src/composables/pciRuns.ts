import { useQuery } from '@pinia/colada'
import { computed, toValue, type MaybeRefOrGetter } from 'vue'
import type { InputOf } from '@contract/catalog'
import { lastTwelveMonthsQuarters, type PciRun, type Quarter } from '@contract/pci/quarters'
import type { PciScope } from '@contract/pci/requirements'
import { runsOfScan, scansThatRan, scopesOfScanners, type ServiceRow } from '@contract/pci/runs'
import { rowsOf, type Collection } from '@/data/envelope'
import { toAppError, type OperationError } from '@/data/errors'
import { fetchOperation } from '@/data/fetchOperation'
import { groupKey } from '@/data/keys'
import type { ListOperationId } from '@/data/useOperationList'
import { operationInRelease } from '@/stores/scope'
import { useAppStore } from '@/stores/app'

/** One scan of the account with the scope its scanner gives it (null: neither). */
export interface PciScan {
  id: string
  name: string
  scope: PciScope | null
  /** Its latest start is in the period (or just before it): its history was read. */
  ran: boolean
}

/** The runs behind the PCI requirements, read for one account. */
export interface PciRunsAnswer {
  runs: PciRun[]
  /** Scans with runs in the period that count for neither scope (no scanner, or not listed). */
  unclassified: string[]
  /** Every scan of the account and its scope (a report's scope is its scan's). */
  scans: PciScan[]
  /** Some answer came from the offline copy; the oldest copy's time. */
  fromCache: boolean
  fetchedAt: string | null
}

/** The most scans whose history is read (one request each). */
export const PCI_SCANS_MAX = 200
const PAGE = 500

type Row = ServiceRow

/**
 * Reads the account's scanners (their app type gives a scan's scope), its scans, and the history
 * of every scan that ran since the first of the last twelve months' quarters: one request per
 * scan, at most PCI_SCANS_MAX of them (then it says so). From the offline copy when offline, like
 * every read. The approval's check reads them afresh with it.
 */
export async function readPciRuns(
  accountId: string,
  release: Parameters<typeof operationInRelease>[1],
  now: Date,
  signal: AbortSignal,
): Promise<PciRunsAnswer> {
  if (!operationInRelease('scanners.list', release))
    throw new Error(
      'This service’s release lists no scanners, so internal and external scans cannot be told apart.',
    )
  let fromCache = false
  let fetchedAt: string | null = null
  const note = (answer: { fromCache: boolean; fetchedAt: string }) => {
    if (answer.fromCache) fromCache = true
    if (!fetchedAt || answer.fetchedAt < fetchedAt) fetchedAt = answer.fetchedAt
  }
  async function all(op: ListOperationId): Promise<Row[]> {
    const out: Row[] = []
    for (let page = 1; page <= 10; page++) {
      const input = { query: { page, per_page: PAGE } } as InputOf<typeof op>
      const answer = await fetchOperation(accountId, op, input, signal)
      note(answer)
      const got = rowsOf(answer.data as Collection<Row>)
      out.push(...got)
      if (got.length < PAGE) break
    }
    return out
  }
  const scopeOf = scopesOfScanners(await all('scanners.list'))
  const from = Date.parse(lastTwelveMonthsQuarters(now)[0].start)
  const every = await all('scans.list')
  const ran = scansThatRan(every, from)
  const ranIds = new Set(ran.map((s) => s.id))
  const scans: PciScan[] = every.map((s) => ({
    id: s.id,
    name: String(s.attributes.name ?? s.id),
    scope: scopeOf.get(String(s.attributes.scanner_id)) ?? null,
    ran: ranIds.has(s.id),
  }))
  if (ran.length > PCI_SCANS_MAX)
    throw new Error(
      `The account has ${ran.length} scans that ran in the last twelve months, more than the ${PCI_SCANS_MAX} whose runs ScanDesk reads here.`,
    )
  const runs: PciRun[] = []
  const unclassified: string[] = []
  for (const scan of ran) {
    const answer = await fetchOperation(
      accountId,
      'scans.history',
      { path: { id: scan.id }, query: { per_page: PAGE } },
      signal,
    )
    note(answer)
    const history = rowsOf(answer.data as Collection<Row>)
    const found = runsOfScan(scan, history, scopeOf.get(String(scan.attributes.scanner_id)), from)
    if (found) runs.push(...found)
    else unclassified.push(String(scan.attributes.name ?? scan.id))
  }
  return { runs, unclassified, scans, fromCache, fetchedAt }
}

/**
 * The query of one account's runs. Made out here, not in usePciRuns: the cache keeps the query it
 * was last asked with for 5 minutes after its last reader left, and a closure made in the
 * composable would keep that reader's component alive with it (as readOptions in useOperation).
 */
function runsQuery(accountId: string | null, release: Parameters<typeof readPciRuns>[1]) {
  return ({ signal }: { signal: AbortSignal }) => {
    if (accountId === null) throw new Error('read held back')
    return readPciRuns(accountId, release, new Date(), signal)
  }
}

/**
 * The runs of the last twelve months behind 11.3.1/11.3.2 and their rescans, for this window's
 * account; read only while `enabled` (the requirement is on screen), kept like other reads.
 */
export function usePciRuns(enabled: MaybeRefOrGetter<boolean>) {
  const app = useAppStore()
  const query = useQuery<PciRunsAnswer, OperationError>(() => {
    const accountId = app.accountId
    return {
      // Under the account's scans group (no operation has this name): a write to scans or the
      // catch-up after offline (the answer carries fromCache like every read's) asks it again,
      // and it goes with its account like the reads it is made of.
      key: [...groupKey(accountId ?? '-', 'scans'), 'scans.pci_runs'],
      enabled: accountId !== null && toValue(enabled),
      query: runsQuery(accountId, app.account?.release),
    }
  })
  return {
    data: computed(() => query.data.value),
    loading: computed(() => query.asyncStatus.value === 'loading'),
    error: computed(() => (query.error.value ? toAppError(query.error.value) : null)),
    retry: async () => {
      await query.refetch()
    },
  }
}

/** The most "first seen in this quarter" counts asked for one scope (one request each). */
export const FIRST_SEEN_MAX = 80

/** Per quarter label: how many findings of the scope's scans were first seen in it. */
export interface FirstSeenAnswer {
  counts: Record<string, number>
  /** Not asked: more scans × quarters than FIRST_SEEN_MAX. */
  skipped: boolean
}

/**
 * For quarters without any run in the service's history: how many findings of the scope's scans
 * (those whose history was read) were first seen in each. A finding first seen in a quarter was
 * found by a run in it, so a count above zero says the history does not list every run.
 */
async function readFirstSeen(
  accountId: string,
  scanIds: readonly string[],
  quarters: readonly Quarter[],
  signal: AbortSignal,
): Promise<FirstSeenAnswer> {
  const counts: Record<string, number> = {}
  if (scanIds.length * quarters.length > FIRST_SEEN_MAX) return { counts, skipped: true }
  for (const q of quarters) {
    let n = 0
    for (const scan_id of scanIds) {
      const query = { scan_id, first_seen_after: q.start, first_seen_before: q.end, per_page: 1 }
      const answer = await fetchOperation(accountId, 'vulnerabilities.list', { query }, signal)
      n +=
        (answer.data as { meta?: { pagination?: { total_count?: number } } }).meta?.pagination
          ?.total_count ?? 0
    }
    counts[q.label] = n
  }
  return { counts, skipped: false }
}

function firstSeenQuery(accountId: string | null, scanIds: string[], quarters: Quarter[]) {
  return ({ signal }: { signal: AbortSignal }) => {
    if (accountId === null) throw new Error('read held back')
    return readFirstSeen(accountId, scanIds, quarters, signal)
  }
}

/**
 * The findings first seen in the quarters of `scope` that the runs' history lists no run in
 * (`quarters`), for the scans of that scope whose history was read; read once the runs are in.
 */
export function useFirstSeenInQuarters(
  runs: () => PciRunsAnswer | undefined,
  scope: () => PciScope,
  quarters: () => Quarter[],
) {
  const app = useAppStore()
  const query = useQuery<FirstSeenAnswer, OperationError>(() => {
    const accountId = app.accountId
    const answer = runs()
    const scanIds = (answer?.scans ?? [])
      .filter((s) => s.ran && s.scope === scope())
      .map((s) => s.id)
    const asked = quarters()
    return {
      key: [
        ...groupKey(accountId ?? '-', 'vulnerabilities'),
        'vulnerabilities.pci_first_seen',
        scope(),
        asked.map((q) => q.label).join(' '),
        scanIds.join(' '),
      ],
      enabled: accountId !== null && !!answer && asked.length > 0 && scanIds.length > 0,
      query: firstSeenQuery(accountId, scanIds, asked),
    }
  })
  return { data: computed(() => query.data.value) }
}

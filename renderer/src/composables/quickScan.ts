import { useTimeoutFn } from '@vueuse/core'
import { computed, ref, watch, type Ref } from 'vue'
import { z } from 'zod'
import { targetAddress } from '@contract/catalog/targets'
import type { AppError, Result } from '@contract/errors'
import { answered, type RecordOf } from '@/data/envelope'
import { useOperationCall } from '@/data/useOperationCall'
import { useRecord, useRows } from '@/data/useRecord'
import { useSchemaForm } from '@/data/useSchemaForm'
import { useAppStore } from '@/stores/app'
import { useConfirmStore } from '@/stores/confirm'
import { useOfflineGate } from '@/data/offlineGate'
import { withBusy } from '@/utils/busy'

/** How long typing must pause before the hosts are counted. */
export const QUICK_SCAN_DEBOUNCE_MS = 400

/** The profile used where the release cannot list profiles (the service's usual default). */
export const FALLBACK_PROFILE = { code: 'full_and_fast', name: 'Full and fast' } as const

/** What the quick scan form checks: the hosts, by the catalog's target address schema. */
export const quickScanSchema = z.strictObject({ address: targetAddress })

/** Names of the service are at most 200 characters (the catalog's `name`). */
const NAME_MAX = 200

/** `text` cut to the service's name length, with an ellipsis where it was cut. */
export function shortName(text: string): string {
  return text.length <= NAME_MAX ? text : `${text.slice(0, NAME_MAX - 1)}…`
}

/** The scan a quick scan created (and started, when `started`). */
export interface QuickScanOutcome {
  target: { id: string; name: string }
  scan: { id: string; name: string; status: string; progress: number }
  started: boolean
}

type Profile = { code: string; name: string }
type Scan = RecordOf<'scans.create'>

/** What was already created for an address, so "Scan now" again does not create it twice. */
interface Progress {
  accountId: string
  address: string
  target?: { id: string; name: string }
  scan?: Scan
}

/**
 * The dashboard's quick scan: one hosts field checked by the catalog's target address schema, a
 * live host count (targets.calculate_hosts, where the release has it) asked once typing pauses,
 * the default profile (scans.scan_profiles, where the release has it) and, after one
 * confirmation, targets.create → scans.create → scans.start through the data layer. While the
 * service is out of reach "Scan now" is disabled with the reason, before any confirmation.
 */
export function useQuickScan(root?: Ref<HTMLElement | null | undefined>) {
  const app = useAppStore()
  const confirm = useConfirmStore()
  const gate = useOfflineGate()
  const { run } = useOperationCall()
  const outcome = ref<QuickScanOutcome | null>(null)
  const busy = ref(false)
  const progress = ref<Progress | null>(null)

  const form = useSchemaForm<QuickScanOutcome>({
    schema: quickScanSchema,
    initial: () => ({ address: '' }),
    toInput: (values) => ({ address: String(values.address ?? '') }),
    labels: { address: 'Hosts' },
    root,
    send: (input) => create((input as z.output<typeof quickScanSchema>).address),
  })

  const address = computed(() => String(form.values.address ?? '').trim())
  const valid = computed(() => quickScanSchema.safeParse({ address: address.value }).success)

  // The address counted: set once typing paused on a valid address, null while typing (the
  // count being asked for the previous one is then cancelled by the data layer).
  const settled = ref<string | null>(null)
  const settle = useTimeoutFn((next: string) => (settled.value = next), QUICK_SCAN_DEBOUNCE_MS, {
    immediate: false,
  })
  watch(address, (next) => {
    settle.stop()
    settled.value = null
    form.setError('address', null)
    if (quickScanSchema.safeParse({ address: next }).success) settle.start(next)
  })

  const count = useRecord(
    'targets.calculate_hosts',
    () => (settled.value ? { body: { address: settled.value } } : null),
    // A write to targets (this very quick scan) must not count again.
    { enabled: () => !busy.value, staleTime: 5 * 60_000 },
  )
  // The service's own reason an address cannot be counted goes under the field (only there).
  const refusal = computed(() => {
    const error = count.error.value
    return error?.code === 'VALIDATION' ? (error.fieldErrors?.address?.[0] ?? null) : null
  })
  watch(refusal, (reason) => {
    if (reason && settled.value === address.value) form.setError('address', reason)
  })

  const profiles = useRows(
    'scans.scan_profiles',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  /** The default profile, null while it is being read or when none is activated. */
  const profile = computed<Profile | null>(() => {
    if (!profiles.available.value) return FALLBACK_PROFILE
    if (profiles.error.value) return FALLBACK_PROFILE
    if (!profiles.data.value) return null
    const activated = profiles.rows.value.filter((r) => r.attributes.activated)
    const chosen =
      activated.find((r) => r.attributes.code === FALLBACK_PROFILE.code) ?? activated[0]
    return chosen ? { code: chosen.attributes.code, name: chosen.attributes.name } : null
  })
  /** Why the profile is not (yet) known, or a note on where it came from. */
  const profileNote = computed<string | null>(() => {
    if (!profiles.available.value) return null
    if (profiles.error.value)
      return `Scan profiles could not be read (${profiles.error.value.message}); the ${FALLBACK_PROFILE.name} profile will be used.`
    if (!profiles.data.value) return 'Reading scan profiles…'
    if (!profile.value) return 'No scan profile is activated in this organization.'
    return null
  })

  const targetName = computed(() => shortName(address.value))
  /** What an earlier "Scan now" for these hosts already created (it failed at a later step). */
  const done = computed(() => {
    const p = progress.value
    return p && p.accountId === app.accountId && p.address === address.value
      ? { target: p.target, scan: p.scan }
      : {}
  })

  /** What "Scan now" will do, in plain words (null until the hosts are valid). */
  const summary = computed<string | null>(() => {
    if (!valid.value) return null
    const profileName = profile.value?.name ?? 'the default'
    const first = done.value.target
      ? `Uses the target “${done.value.target.name}” created before`
      : `Creates target “${targetName.value}”`
    const second = done.value.scan
      ? `starts the scan “${done.value.scan.attributes.name}” created before`
      : `creates a scan with the ${profileName} profile on an automatically chosen scanner, and starts it now`
    return `${first}, ${second}.`
  })
  /** The host count line, or null when there is nothing to say yet. */
  const countText = computed<string | null>(() => {
    if (!count.available.value) return 'Host count not available on this release.'
    if (!valid.value) return null
    if (settled.value !== address.value || count.loading.value) return 'Counting hosts…'
    // A refused address is said once, under the field.
    if (refusal.value) return null
    if (count.error.value) return `Hosts could not be counted: ${count.error.value.message}`
    const n = count.record.value?.hosts_count
    if (n === undefined) return null
    if (n === 0) return 'This covers no hosts.'
    return `This covers ${n.toLocaleString('en-US')} ${n === 1 ? 'host' : 'hosts'}.`
  })
  const hostsCount = computed(() =>
    count.available.value && settled.value === address.value && !count.error.value
      ? (count.record.value?.hosts_count ?? null)
      : null,
  )

  /** Why "Scan now" must wait for the service (its three writes are online-only), else null. */
  const offline = computed(() => gate.blockedAny(['targets.create', 'scans.create', 'scans.start']))
  const canSubmit = computed(() => !busy.value && profile.value !== null && !offline.value)

  // Another account: nothing of this one's work stays on screen.
  watch(
    () => app.accountId,
    () => {
      outcome.value = null
      progress.value = null
      form.reset({ address: form.values.address })
    },
  )

  /** Checks, asks once, then creates and starts; the outcome is shown, or what failed. */
  async function submit(): Promise<void> {
    if (!canSubmit.value) return
    outcome.value = null
    if (!(await form.validate())) {
      await form.giveCaretBack()
      return
    }
    const n = hostsCount.value
    const ok = await confirm.ask({
      title: 'Scan now',
      message: `${summary.value}`,
      detail:
        n === null
          ? undefined
          : `The scan covers ${n.toLocaleString('en-US')} ${n === 1 ? 'host' : 'hosts'}.`,
      confirmLabel: 'Scan now',
      danger: false,
      testId: 'quick-scan-confirm',
    })
    if (!ok) return
    await withBusy(busy, async () => {
      const answer = await form.submit()
      if (!answer) return
      outcome.value = answer
      if (answer.started) {
        progress.value = null
        form.reset()
      }
    })
  }

  async function create(addr: string): Promise<Result<QuickScanOutcome>> {
    const chosen = profile.value
    const accountId = app.accountId
    if (!chosen || !accountId)
      return { ok: false, error: { code: 'INTERNAL', message: 'No scan profile is chosen.' } }
    const earlier = progress.value
    if (!earlier || earlier.accountId !== accountId || earlier.address !== addr)
      progress.value = { accountId, address: addr }
    // The reactive copy: what each step records shows at once in the summary.
    const state = progress.value!

    let target = state.target
    if (!target) {
      const made = await run('targets.create', { body: { name: shortName(addr), address: addr } })
      if (!made.ok) return failed(made.error, 'The target could not be created:')
      const row = answered(made.data)
      target = state.target = { id: row.id, name: row.attributes.name }
    }

    let scan = state.scan
    if (!scan) {
      const made = await run('scans.create', {
        body: {
          name: shortName(`Quick scan ${addr}`),
          target_ids: [target.id],
          scan_profile: chosen.code,
        },
      })
      if (!made.ok)
        return failed(
          made.error,
          `The target “${target.name}” was created, but the scan could not be:`,
        )
      scan = state.scan = answered(made.data)
    }

    const started = await run('scans.start', { path: { id: scan.id } })
    if (!started.ok) {
      // The scan exists: show it (its page can start it) with what went wrong.
      outcome.value = { target, scan: brief(scan), started: false }
      return failed(
        started.error,
        `The target “${target.name}” and the scan “${scan.attributes.name}” were created, but the scan could not be started:`,
      )
    }
    return { ok: true, data: { target, scan: brief(answered(started.data)), started: true } }
  }

  return {
    form,
    address,
    summary,
    countText,
    countAvailable: count.available,
    /** Whether typing's pause before counting is still running (journeys wait for its end). */
    countPending: settle.isPending,
    profileNote,
    offline,
    canSubmit,
    busy,
    outcome,
    submit,
  }
}

function brief(scan: Scan): QuickScanOutcome['scan'] {
  return {
    id: scan.id,
    name: scan.attributes.name,
    status: scan.attributes.status,
    progress: scan.attributes.progress,
  }
}

/** The step's failure, said with what had been done before it. */
function failed(error: AppError, before: string): { ok: false; error: AppError } {
  return { ok: false, error: { ...error, message: `${before} ${error.message}` } }
}

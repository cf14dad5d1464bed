import { ElMessage } from 'element-plus'
import { useTimeoutFn } from '@vueuse/core'
import { computed, ref, watch, type Ref } from 'vue'
import { useRouter } from 'vue-router'
import type { z } from 'zod'
import { scanWizardBody } from '@contract/catalog/scans'
import { parseHostList } from '@contract/hosts'
import type { AppError } from '@contract/errors'
import { useDraft } from '@/data/useDraft'
import { answered } from '@/data/envelope'
import { useOperationCall } from '@/data/useOperationCall'
import { useRecord, useRows } from '@/data/useRecord'
import { useSchemaForm, type SchemaForm } from '@/data/useSchemaForm'
import { detailRoute, resourceByKey } from '@/resources'
import { useAppStore } from '@/stores/app'
import { useReleaseGuard } from '@/stores/scope'
import { usePreferredTimeZone } from './timeZone'
import { checkHostList } from './hostList'
import {
  MAX_NEW_TARGETS,
  STEP_KEYS,
  WIZARD_STEPS,
  blankWizard,
  howStep,
  str,
  whatStep,
  whenStep,
  whereStep,
  wizardBody,
  wizardDraftSchema,
  type StepKey,
  type Values,
  type WizardDraft,
} from './scanWizardSteps'

export * from './hostList'
export * from './scanWizardSteps'

/** How long typing must pause before the hosts are counted. */
export const HOSTS_DEBOUNCE_MS = 400

/** Largest host file imported (1 MiB). */
export const MAX_HOST_FILE_BYTES = 1024 * 1024

const LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  scan_profile: 'Scan profile',
  target_ids: 'Saved target',
  hosts: 'Hosts',
  exclusions: 'Exclusions',
  port_list_id: 'Port list',
  scanner_id: 'Scanner',
  cred_ssh: 'SSH credential',
  cred_smb: 'Windows credential',
  cred_snmp: 'SNMP credential',
  frequency: 'Repeats',
  start_at: 'First run',
  time_zone: 'Time zone',
}

/**
 * The guided scan wizard: five steps, each checked on its own by its part of the catalog's wizard
 * body (or scheduleRule) before Next; every change kept as a draft on this computer (restored when
 * the wizard opens again); nothing sent to the service before Review, where Save creates the scan
 * (scans.create_from_wizard) and Save and start starts it too (scans.start).
 */
export function useScanWizard(root?: Ref<HTMLElement | null | undefined>) {
  const app = useAppStore()
  const router = useRouter()
  const { run } = useOperationCall(['targets', 'schedules'])
  // A schedule starts in the user's own time zone (their profile), else this computer's.
  const zone = usePreferredTimeZone()
  const blank = () => blankWizard(zone.value)

  const noSend = async () => ({ ok: true as const, data: null })
  const makeForm = (key: StepKey, schema: z.ZodType) =>
    useSchemaForm({
      schema,
      initial: () => ({ ...blank()[key] }),
      labels: LABELS,
      root,
      send: noSend,
    })
  const forms: Record<StepKey, SchemaForm> = {
    what: makeForm('what', whatStep),
    where: makeForm('where', whereStep),
    how: makeForm('how', howStep),
    when: makeForm('when', whenStep),
  }
  const step = ref(0)
  const submitting = ref<'save' | 'start' | null>(null)
  const submitError = ref<AppError | null>(null)

  const values = () =>
    Object.fromEntries(STEP_KEYS.map((k) => [k, { ...forms[k].values }])) as Record<StepKey, Values>

  // ---- the draft
  const draft = useDraft<WizardDraft>('scan-wizard', wizardDraftSchema)
  const restored = ref(false)
  const snapshot = (): WizardDraft => JSON.parse(JSON.stringify({ step: step.value, ...values() }))
  const blankSnapshot = () => JSON.stringify({ step: 0, ...blank() })

  function restore(saved: WizardDraft | null): void {
    const fresh = blank()
    for (const k of STEP_KEYS) forms[k].reset(saved ? { ...fresh[k], ...saved[k] } : fresh[k])
    step.value = saved?.step ?? 0
    submitError.value = null
  }
  watch(
    () => draft.loaded.value,
    (loaded) => {
      if (!loaded) {
        restored.value = false
        return
      }
      restore(draft.value.value)
      restored.value = true
    },
    { immediate: true },
  )
  // Every change is kept (a wizard nobody typed into leaves no draft).
  watch(
    () => JSON.stringify(snapshot()),
    (now) => {
      if (!restored.value || submitting.value) return
      if (now === blankSnapshot() && !draft.value.value) return
      void draft.save(JSON.parse(now) as WizardDraft)
    },
  )

  // The profile's zone arrives after the wizard opened: a zone nobody chose follows it.
  watch(zone, (next, previous) => {
    if (forms.when.values.time_zone === previous) forms.when.setValue('time_zone', next)
  })

  /** Forgets the draft and starts again at step 1. */
  async function startOver(): Promise<void> {
    restored.value = false
    restore(null)
    await draft.clear()
    restored.value = true
  }

  // ---- steps
  const key = computed<StepKey | null>(() => STEP_KEYS[step.value] ?? null)
  const form = computed(() => (key.value ? forms[key.value] : null))

  /** Checks the step on screen; on success moves on, else the caret goes to the first error. */
  async function next(): Promise<boolean> {
    const current = form.value
    if (current) {
      if (!(await current.validate())) {
        await current.giveCaretBack()
        return false
      }
    }
    if (step.value < WIZARD_STEPS.length - 1) step.value++
    return true
  }
  function back(): void {
    if (step.value > 0) step.value--
  }
  /** Goes to an earlier step (the step list); later ones only through Next. */
  function goTo(index: number): void {
    if (index >= 0 && index < step.value) step.value = index
  }

  // ---- reads
  const profiles = useRows(
    'scans.scan_profiles',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const activatedProfiles = computed(() =>
    profiles.rows.value.filter((p) => p.attributes.activated),
  )
  const portLists = useRows(
    'port_lists.activated',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const scanners = useRows(
    'scanners.activated',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const credentials = useRows(
    'credentials.list',
    { query: { per_page: 100 } },
    { staleTime: 60_000 },
  )
  const organization = useRecord('user.organization', () => (step.value === 4 ? {} : null), {
    staleTime: 5 * 60_000,
  })
  const organizationName = computed(() => organization.attributes.value?.name ?? null)

  // ---- hosts: checked line by line, counted by the service once typing pauses
  const hostCheck = computed(() =>
    checkHostList(str(forms.where.values.hosts), str(forms.where.values.exclusions)),
  )
  const countable = computed(() => {
    const w = forms.where.values
    if (w.target_mode !== 'new') return null
    const c = hostCheck.value
    if (c.problem || c.exclusionsProblem) return null
    if (c.lines.some((l) => l.problem) || c.exclusions.some((l) => l.problem)) return null
    if (!c.addresses.length || c.addresses.length > MAX_NEW_TARGETS) return null
    return c.addresses
  })
  /** The distinct hosts the new targets cover, counted here (overlaps once): the host syntax. */
  const localHostCount = computed(() =>
    countable.value ? parseHostList(countable.value).count : null,
  )
  const guard = useReleaseGuard()
  const countAvailable = computed(() => guard.has('targets.calculate_hosts'))
  const counted = new Map<string, number>()
  let countAccount: string | null = null
  const hostCount = ref<number | null>(null)
  const counting = ref(false)
  const countError = ref<string | null>(null)
  let generation = 0
  const countSoon = useTimeoutFn(
    (addresses: string[], mine: number) => void count(addresses, mine),
    HOSTS_DEBOUNCE_MS,
    { immediate: false },
  )
  watch(
    () => JSON.stringify(countable.value),
    () => {
      countSoon.stop()
      generation++
      hostCount.value = null
      countError.value = null
      const addresses = countable.value
      counting.value = !!addresses && countAvailable.value
      if (!addresses || !countAvailable.value) return
      const mine = generation
      countSoon.start(addresses, mine)
    },
    { immediate: true },
  )
  async function count(addresses: string[], mine: number): Promise<void> {
    if (countAccount !== app.accountId) {
      counted.clear()
      countAccount = app.accountId
    }
    const todo = addresses.filter((a) => !counted.has(a))
    for (let i = 0; i < todo.length; i += 8) {
      const answers = await Promise.all(
        todo
          .slice(i, i + 8)
          .map((address) => run('targets.calculate_hosts', { body: { address } })),
      )
      if (mine !== generation) return
      for (const [j, answer] of answers.entries()) {
        if (!answer.ok) {
          counting.value = false
          countError.value = answer.error.message
          return
        }
        counted.set(todo[i + j], answered(answer.data).hosts_count)
      }
    }
    if (mine !== generation) return
    counting.value = false
    hostCount.value = addresses.reduce((n, a) => n + (counted.get(a) ?? 0), 0)
  }

  // ---- submit
  const body = computed(() => wizardBody(values()))
  const scans = resourceByKey('scans')

  /** Creates the scan (and starts it when `start`), then opens its page; the draft is cleared. */
  async function submit(start: boolean): Promise<boolean> {
    if (submitting.value) return false
    submitError.value = null
    for (const [i, k] of STEP_KEYS.entries()) {
      if (!(await forms[k].validate())) {
        step.value = i
        await forms[k].giveCaretBack()
        return false
      }
    }
    const checked = scanWizardBody.safeParse(body.value)
    if (!checked.success) {
      submitError.value = {
        code: 'VALIDATION',
        message: checked.error.issues.map((i) => i.message).join(' '),
      }
      return false
    }
    submitting.value = start ? 'start' : 'save'
    try {
      const made = await run('scans.create_from_wizard', { body: checked.data })
      if (!made.ok) {
        submitError.value = made.error
        return false
      }
      const scan = answered(made.data)
      if (start) {
        const started = await run('scans.start', { path: { id: scan.id } })
        if (!started.ok)
          ElMessage.error(
            `The scan “${scan.attributes.name}” was created but could not be started: ${started.error.message}`,
          )
      }
      await draft.clear()
      restore(null)
      if (scans) await router.push(detailRoute(scans, scan.id))
      return true
    } finally {
      submitting.value = null
    }
  }

  return {
    forms,
    step,
    key,
    form,
    next,
    back,
    goTo,
    startOver,
    submit,
    submitting,
    submitError,
    body,
    draft,
    restored,
    profiles,
    activatedProfiles,
    portLists,
    scanners,
    credentials,
    organizationName,
    hostCheck,
    hostCount,
    localHostCount,
    counting,
    countError,
    countAvailable,
    /** Whether typing's pause before counting is still running (journeys wait for its end). */
    countPending: countSoon.isPending,
  }
}

export type ScanWizard = ReturnType<typeof useScanWizard>

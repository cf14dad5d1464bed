import { ElMessage } from 'element-plus'
import { computed, onScopeDispose, ref, watch, type Ref } from 'vue'
import { useRouter } from 'vue-router'
import { z } from 'zod'
import { scanWizardBody } from '@contract/catalog/scans'
import { scheduleRule } from '@contract/catalog/schedules'
import { targetAddress } from '@contract/catalog/targets'
import { MAX_HOST_LINES, ipv4Text, parseHostEntry, parseHostList } from '@contract/hosts'
import type { AppError } from '@contract/errors'
import { useDraft } from '@/data/useDraft'
import { useOperation } from '@/data/useOperation'
import { useOperationCall } from '@/data/useOperationCall'
import { useSchemaForm, type SchemaForm } from '@/data/useSchemaForm'
import { detailRoute, resourceByKey } from '@/resources'
import { useAppStore } from '@/stores/app'
import { useReleaseGuard } from '@/stores/scope'

const shape = scanWizardBody.shape

/** The wizard's steps, in order. */
export const WIZARD_STEPS = ['What', 'Where', 'How', 'When', 'Review'] as const

/** How long typing must pause before the hosts are counted. */
export const HOSTS_DEBOUNCE_MS = 400

/** Most lines a pasted or imported host list may have before it is checked line by line. */
export const MAX_HOST_LIST_LINES = MAX_HOST_LINES

/** Largest host file imported (1 MiB). */
export const MAX_HOST_FILE_BYTES = 1024 * 1024

/** Most new targets one wizard creates (the catalog's new_targets limit). */
export const MAX_NEW_TARGETS = 100

/** Credential pickers of the How step: one per protocol, with the credential kinds it takes. */
export const CREDENTIAL_PROTOCOLS = [
  { field: 'cred_ssh', label: 'SSH', kinds: ['ssh_password', 'ssh_key'] },
  { field: 'cred_smb', label: 'Windows (SMB)', kinds: ['windows_smb'] },
  { field: 'cred_snmp', label: 'SNMP', kinds: ['snmp_community'] },
] as const

// ---- host lists ------------------------------------------------------------------------------

/** One non-blank line of a host list: refused with a reason, a duplicate, or accepted. */
export interface HostLineCheck {
  /** 1-based line number in the text. */
  line: number
  text: string
  /** Why the catalog's targetAddress schema refuses the line. */
  problem?: string
  /** The earlier line with the same entry (this one is left out). */
  duplicateOf?: number
  /** What the exclusions did to the line: removed it or left parts of it. */
  note?: string
  /** The entry's canonical text (host syntax), for an accepted line. */
  normalized?: string
}

/** A host list checked line by line, with the exclusions applied. */
export interface HostListCheck {
  /** A problem of the whole list (too many lines); then no line was checked. */
  problem?: string
  exclusionsProblem?: string
  lines: HostLineCheck[]
  exclusions: HostLineCheck[]
  /** The addresses the new targets get (duplicates left out, exclusions applied). */
  addresses: string[]
}

/** An IPv4 address as an unsigned integer, or null. */
function ipv4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null
  return parts.reduce((n, p) => n * 256 + Number(p), 0)
}

/**
 * The IPv4 addresses an accepted entry covers, as one interval (null: a host name or IPv6). A
 * scanned block leaves out its network and broadcast addresses; an excluded one (`whole`) does not.
 */
function ipv4Interval(entry: string, whole = false): [number, number] | null {
  const single = ipv4(entry)
  if (single !== null) return [single, single]
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry)
  if (cidr) {
    const base = ipv4(cidr[1])
    const prefix = Number(cidr[2])
    if (base === null || prefix > 32) return null
    const size = 2 ** (32 - prefix)
    const network = base - (base % size)
    // Below /31 the network and broadcast addresses are not scanned.
    return prefix >= 31 || whole ? [network, network + size - 1] : [network + 1, network + size - 2]
  }
  const range = /^([\d.]+)-([\d.]+)$/.exec(entry)
  if (range) {
    const start = ipv4(range[1])
    if (start === null) return null
    const end = range[2].includes('.') ? ipv4(range[2]) : start - (start % 256) + Number(range[2])
    return end === null || end < start ? null : [start, end]
  }
  return null
}

const intervalText = ([s, e]: [number, number]) =>
  s === e ? ipv4Text(s) : `${ipv4Text(s)}-${ipv4Text(e)}`

function checkLines(text: string): { lines: HostLineCheck[]; problem?: string } {
  const raw = text.split(/\r\n|\r|\n/)
  const count = raw.filter((l) => l.trim() !== '').length
  if (count > MAX_HOST_LIST_LINES) {
    return {
      lines: [],
      problem: `The list has ${count.toLocaleString('en-US')} lines; at most ${MAX_HOST_LIST_LINES.toLocaleString('en-US')} are checked. Use CIDR blocks or ranges, or split it into several scans.`,
    }
  }
  const seen = new Map<string, number>()
  const lines: HostLineCheck[] = []
  raw.forEach((l, i) => {
    const text = l.trim()
    if (text === '') return
    const line: HostLineCheck = { line: i + 1, text }
    // The catalog's schema first (what the service's contract takes), then the host syntax's
    // own sentence (CIDR sizes, octets, ranges the schema's characters cannot tell).
    const checked = targetAddress.safeParse(text)
    const entry = parseHostEntry(text)
    if (!checked.success) line.problem = checked.error.issues[0]?.message ?? 'is not an address'
    else if (!entry.ok) line.problem = entry.problem
    else {
      line.normalized = entry.normalized
      const earlier = seen.get(entry.normalized)
      if (earlier !== undefined) line.duplicateOf = earlier
      else seen.set(entry.normalized, i + 1)
    }
    lines.push(line)
  })
  return { lines }
}

/**
 * Checks a host list and its exclusions line by line with the catalog's targetAddress schema,
 * flags repeated lines, and applies the exclusions: an excluded host name or IPv6 entry removes
 * the same line, excluded IPv4 addresses are cut out of addresses, blocks and ranges (what is
 * left is sent as ranges).
 */
export function checkHostList(hosts: string, exclusions = ''): HostListCheck {
  const list = checkLines(hosts)
  const excl = checkLines(exclusions)
  const out: HostListCheck = { lines: list.lines, exclusions: excl.lines, addresses: [] }
  if (list.problem) out.problem = list.problem
  if (excl.problem) out.exclusionsProblem = excl.problem
  const cuts = excl.lines.filter((l) => !l.problem)
  const keyOf = (l: HostLineCheck) => l.normalized ?? l.text.toLowerCase()
  const cutIntervals = cuts.flatMap((c) => {
    const iv = ipv4Interval(keyOf(c), true)
    return iv ? [{ line: c, iv }] : []
  })
  const cutNames = new Map(cuts.filter((c) => !ipv4Interval(keyOf(c))).map((c) => [keyOf(c), c]))
  const used = new Set<HostLineCheck>()
  for (const line of list.lines) {
    if (line.problem || line.duplicateOf !== undefined) continue
    const iv = ipv4Interval(keyOf(line))
    if (!iv) {
      const cut = cutNames.get(keyOf(line))
      if (cut) {
        used.add(cut)
        line.note = `left out: excluded by line ${cut.line} of the exclusions`
      } else out.addresses.push(line.text)
      continue
    }
    let pieces: [number, number][] = [iv]
    for (const {
      line: cut,
      iv: [cs, ce],
    } of cutIntervals) {
      const next: [number, number][] = []
      for (const [s, e] of pieces) {
        if (ce < s || cs > e) {
          next.push([s, e])
          continue
        }
        used.add(cut)
        if (s < cs) next.push([s, cs - 1])
        if (e > ce) next.push([ce + 1, e])
      }
      pieces = next
    }
    if (pieces.length === 1 && pieces[0][0] === iv[0] && pieces[0][1] === iv[1]) {
      out.addresses.push(line.text)
    } else if (!pieces.length) {
      line.note = 'left out: every address is excluded'
    } else {
      const texts = pieces.map(intervalText)
      line.note = `exclusions applied: scans ${texts.join(', ')}`
      out.addresses.push(...texts)
    }
  }
  for (const cut of cuts) if (!used.has(cut)) cut.note = 'excludes none of the hosts listed'
  return out
}

// ---- steps -----------------------------------------------------------------------------------

type Values = Record<string, unknown>
const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v))
const strs = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])

function issuesOf(ctx: z.RefinementCtx, path: string, schema: z.ZodType, value: unknown): boolean {
  const checked = schema.safeParse(value)
  if (checked.success) return true
  ctx.addIssue({ code: 'custom', path: [path], message: checked.error.issues[0]?.message ?? '' })
  return false
}

/** Step 1: name and scan profile, by the wizard body's own fields. */
export const whatStep = z.strictObject({
  name: shape.name,
  description: shape.description,
  scan_profile: z.string().min(1, 'Choose a scan profile.').pipe(shape.scan_profile),
})

/** Step 2: saved targets, or new hosts (each line a targetAddress) with exclusions; port list. */
export const whereStep = z
  .object({
    target_mode: z.enum(['saved', 'new']),
    target_ids: z.array(z.string()),
    hosts: z.string(),
    exclusions: z.string(),
    port_list_id: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.target_mode === 'saved') {
      if (!v.target_ids.length)
        ctx.addIssue({ code: 'custom', path: ['target_ids'], message: 'Choose a saved target.' })
      else issuesOf(ctx, 'target_ids', shape.target_ids, v.target_ids)
    } else {
      const checked = checkHostList(v.hosts, v.exclusions)
      const bad = checked.lines.find((l) => l.problem)
      const badExcl = checked.exclusions.find((l) => l.problem)
      if (checked.problem)
        ctx.addIssue({ code: 'custom', path: ['hosts'], message: checked.problem })
      else if (bad)
        ctx.addIssue({
          code: 'custom',
          path: ['hosts'],
          message: `Line ${bad.line}: ${bad.problem}`,
        })
      else if (!checked.addresses.length)
        ctx.addIssue({
          code: 'custom',
          path: ['hosts'],
          message: checked.lines.length
            ? 'The exclusions leave no host to scan.'
            : 'Enter at least one host, one per line.',
        })
      else if (checked.addresses.length > MAX_NEW_TARGETS)
        ctx.addIssue({
          code: 'custom',
          path: ['hosts'],
          message: `These hosts make ${checked.addresses.length.toLocaleString('en-US')} targets; one scan takes at most ${MAX_NEW_TARGETS}. Use CIDR blocks or ranges, or a saved target.`,
        })
      else
        issuesOf(
          ctx,
          'hosts',
          shape.new_targets,
          checked.addresses.map((address) => ({ address })),
        )
      if (checked.exclusionsProblem)
        ctx.addIssue({ code: 'custom', path: ['exclusions'], message: checked.exclusionsProblem })
      else if (badExcl)
        ctx.addIssue({
          code: 'custom',
          path: ['exclusions'],
          message: `Line ${badExcl.line}: ${badExcl.problem}`,
        })
    }
    if (v.port_list_id) issuesOf(ctx, 'port_list_id', shape.port_list_id, v.port_list_id)
  })

/** Step 3: the scanner (automatic or a chosen one) and a credential per protocol. */
export const howStep = z
  .object({
    scanner_mode: z.enum(['auto', 'chosen']),
    scanner_id: z.string(),
    cred_ssh: z.string(),
    cred_smb: z.string(),
    cred_snmp: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.scanner_mode === 'chosen') {
      if (!v.scanner_id)
        ctx.addIssue({
          code: 'custom',
          path: ['scanner_id'],
          message: 'Choose a scanner, or let the service choose one.',
        })
      else issuesOf(ctx, 'scanner_id', shape.scanner_id, v.scanner_id)
    }
    for (const p of CREDENTIAL_PROTOCOLS)
      if (v[p.field]) issuesOf(ctx, p.field, shape.credential_ids, [v[p.field]])
  })

/** Step 4: start now, on a schedule (the catalog's scheduleRule) or not at all. */
export const whenStep = z
  .object({
    start: z.enum(['now', 'scheduled', 'none']),
    frequency: z.string(),
    start_at: z.string(),
    time_zone: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.start !== 'scheduled') return
    const checked = scheduleRule.safeParse({
      frequency: v.frequency,
      start_at: v.start_at,
      time_zone: v.time_zone,
    })
    if (checked.success) return
    const seen = new Set<string>()
    for (const issue of checked.error.issues) {
      const key = String(issue.path[0] ?? 'start_at')
      if (seen.has(key)) continue
      seen.add(key)
      const message = key === 'frequency' ? 'Choose how often the scan repeats.' : issue.message
      ctx.addIssue({ code: 'custom', path: [key], message })
    }
  })

/** The values a fresh wizard starts from. */
export function blankWizard(timeZone: string) {
  return {
    what: { name: '', description: '', scan_profile: '' },
    where: { target_mode: 'new', target_ids: [], hosts: '', exclusions: '', port_list_id: '' },
    how: { scanner_mode: 'auto', scanner_id: '', cred_ssh: '', cred_smb: '', cred_snmp: '' },
    when: { start: 'now', frequency: 'weekly', start_at: '', time_zone: timeZone },
  } as Record<StepKey, Values>
}

type StepKey = 'what' | 'where' | 'how' | 'when'
const STEP_KEYS: readonly StepKey[] = ['what', 'where', 'how', 'when']

/** What the draft keeps: every step's values and the step on screen. */
export const wizardDraftSchema = z.object({
  step: z
    .number()
    .int()
    .min(0)
    .max(WIZARD_STEPS.length - 1),
  what: z.record(z.string(), z.unknown()),
  where: z.record(z.string(), z.unknown()),
  how: z.record(z.string(), z.unknown()),
  when: z.record(z.string(), z.unknown()),
})
export type WizardDraft = z.infer<typeof wizardDraftSchema>

/** The wizard body from the steps' values (not yet checked). */
export function wizardBody(values: Record<StepKey, Values>): z.input<typeof scanWizardBody> {
  const { what, where, how, when } = values
  const body: z.input<typeof scanWizardBody> = {
    name: str(what.name).trim(),
    scan_profile: str(what.scan_profile),
  }
  if (str(what.description).trim()) body.description = str(what.description).trim()
  if (where.target_mode === 'saved') body.target_ids = strs(where.target_ids)
  else
    body.new_targets = checkHostList(str(where.hosts), str(where.exclusions)).addresses.map(
      (address) => ({ address }),
    )
  if (str(where.port_list_id)) body.port_list_id = str(where.port_list_id)
  if (how.scanner_mode === 'chosen' && str(how.scanner_id)) body.scanner_id = str(how.scanner_id)
  const creds = [...new Set(CREDENTIAL_PROTOCOLS.map((p) => str(how[p.field])).filter((id) => id))]
  if (creds.length) body.credential_ids = creds
  if (when.start === 'scheduled')
    body.schedule = {
      frequency: str(when.frequency) as z.infer<typeof scheduleRule>['frequency'],
      start_at: str(when.start_at),
      time_zone: str(when.time_zone),
    }
  return body
}

// ---- the wizard ------------------------------------------------------------------------------

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
  const defaultZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  const blank = blankWizard(defaultZone)

  const noSend = async () => ({ ok: true as const, data: null })
  const makeForm = (key: StepKey, schema: z.ZodType) =>
    useSchemaForm({
      schema,
      initial: () => ({ ...blank[key] }),
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
  const blankSnapshot = JSON.stringify({ step: 0, ...blank })

  function restore(saved: WizardDraft | null): void {
    for (const k of STEP_KEYS) forms[k].reset(saved ? { ...blank[k], ...saved[k] } : blank[k])
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
      if (now === blankSnapshot && !draft.value.value) return
      void draft.save(JSON.parse(now) as WizardDraft)
    },
  )

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
  const profiles = useOperation(
    'scans.scan_profiles',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const activatedProfiles = computed(() =>
    (profiles.data.value?.data ?? []).filter((p) => p.attributes.activated),
  )
  const portLists = useOperation(
    'port_lists.activated',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const scanners = useOperation(
    'scanners.activated',
    { query: { per_page: 100 } },
    { staleTime: 5 * 60_000 },
  )
  const credentials = useOperation(
    'credentials.list',
    { query: { per_page: 100 } },
    { staleTime: 60_000 },
  )
  const organization = useOperation('user.organization', () => (step.value === 4 ? {} : null), {
    staleTime: 5 * 60_000,
  })
  const organizationName = computed(() => organization.data.value?.data.attributes.name ?? null)

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
  let timer: ReturnType<typeof setTimeout> | null = null
  const stopTimer = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }
  onScopeDispose(stopTimer)
  watch(
    () => JSON.stringify(countable.value),
    () => {
      stopTimer()
      generation++
      hostCount.value = null
      countError.value = null
      const addresses = countable.value
      counting.value = !!addresses && countAvailable.value
      if (!addresses || !countAvailable.value) return
      const mine = generation
      timer = setTimeout(() => void count(addresses, mine), HOSTS_DEBOUNCE_MS)
    },
    { immediate: true },
  )
  async function count(addresses: string[], mine: number): Promise<void> {
    timer = null
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
        counted.set(todo[i + j], answer.data.data.data.hosts_count)
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
      const scan = made.data.data.data
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
  }
}

export type ScanWizard = ReturnType<typeof useScanWizard>

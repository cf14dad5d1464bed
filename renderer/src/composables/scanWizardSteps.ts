import { z } from 'zod'
import { scanWizardBody } from '@contract/catalog/scans'
import { scheduleRule } from '@contract/catalog/schedules'
import { checkHostList } from './hostList'

// The scan wizard's steps: each checked on its own by its part of the catalog's wizard body (or
// scheduleRule), the values a fresh wizard starts from, what its draft keeps, and the body sent.

const shape = scanWizardBody.shape

/** The wizard's steps, in order. */
export const WIZARD_STEPS = ['What', 'Where', 'How', 'When', 'Review'] as const

/** Most new targets one wizard creates (the catalog's new_targets limit). */
export const MAX_NEW_TARGETS = 100

/** Credential pickers of the How step: one per protocol, with the credential kinds it takes. */
export const CREDENTIAL_PROTOCOLS = [
  { field: 'cred_ssh', label: 'SSH', kinds: ['ssh_password', 'ssh_key'] },
  { field: 'cred_smb', label: 'Windows (SMB)', kinds: ['windows_smb'] },
  { field: 'cred_snmp', label: 'SNMP', kinds: ['snmp_community'] },
] as const

export type Values = Record<string, unknown>
export const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v))
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

/**
 * The field's message for refused lines: how many, not which. Each refused line is listed under
 * the field with its reason, once.
 */
export function refusedLines(n: number): string {
  return n === 1
    ? 'One line cannot be scanned: fix or remove it (its reason is listed below).'
    : `${n.toLocaleString('en-US')} lines cannot be scanned: fix or remove them (the reasons are listed below).`
}

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
    const refuse = (field: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message })
    if (v.target_mode === 'saved') {
      if (!v.target_ids.length) refuse('target_ids', 'Choose a saved target.')
      else issuesOf(ctx, 'target_ids', shape.target_ids, v.target_ids)
    } else {
      const checked = checkHostList(v.hosts, v.exclusions)
      const bad = checked.lines.filter((l) => l.problem).length
      const badExcl = checked.exclusions.filter((l) => l.problem).length
      if (checked.problem) refuse('hosts', checked.problem)
      else if (bad) refuse('hosts', refusedLines(bad))
      else if (!checked.addresses.length)
        refuse(
          'hosts',
          checked.lines.length
            ? 'The exclusions leave no host to scan.'
            : 'Enter at least one host, one per line.',
        )
      else if (checked.addresses.length > MAX_NEW_TARGETS)
        refuse(
          'hosts',
          `These hosts make ${checked.addresses.length.toLocaleString('en-US')} targets; one scan takes at most ${MAX_NEW_TARGETS}. Use CIDR blocks or ranges, or a saved target.`,
        )
      else
        issuesOf(
          ctx,
          'hosts',
          shape.new_targets,
          checked.addresses.map((address) => ({ address })),
        )
      if (checked.exclusionsProblem) refuse('exclusions', checked.exclusionsProblem)
      else if (badExcl) refuse('exclusions', refusedLines(badExcl))
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

/** What an empty (or unknown) field of step 4 lacks, said in the words of the step. */
const WHEN_MISSING: Partial<Record<string, (v: Record<string, string>) => string | undefined>> = {
  frequency: () => 'Choose how often the scan repeats.',
  start_at: (v) => (v.start_at.trim() ? undefined : 'Choose the date and time of the first run.'),
  time_zone: (v) => (v.time_zone.trim() ? undefined : 'Choose the time zone of the schedule.'),
}

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
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: WHEN_MISSING[key]?.(v) ?? issue.message,
      })
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

export type StepKey = 'what' | 'where' | 'how' | 'when'
export const STEP_KEYS: readonly StepKey[] = ['what', 'where', 'how', 'when']

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

// Asset context (issue 37 §2): how critical an asset is, where it can be reached from and who owns
// it, set on a target (by the service's target id) or a host (by its address: the service's host
// records are one per host and scan, so one machine has several ids but one address), or by an
// ordered list of rules. Per account; the priority rule (priority.ts) reads criticality and
// exposure. docs/decisions.md "Fix first: asset context".
import { z } from 'zod'
import { accountId } from '../accounts'
import { absolutePath } from '../files'
import { idParam } from '../schemas/common'
import { CRITICALITIES, EXPOSURES, type Criticality, type Exposure } from './priority'
import {
  formatAddress,
  nameMatches,
  parseAddress,
  parseRange,
  patternProblem,
  rangeContains,
  rangeWithin,
} from './asset-match'

/** How each criticality and exposure reads. */
export const CRITICALITY_LABEL: Record<Criticality, string> = {
  'crown-jewel': 'Crown jewel',
  high: 'High',
  normal: 'Normal',
  low: 'Low',
}
export const EXPOSURE_LABEL: Record<Exposure, string> = {
  'internet-facing': 'Internet-facing',
  internal: 'Internal',
}

/** The longest owner (a team, a person, a ticket queue). */
export const MAX_OWNER = 120
/** At most this many rules, and this many explicit settings of each kind, per account. */
export const MAX_RULES = 500
export const MAX_SETTINGS = 20_000
/** The largest asset-context file read. */
export const MAX_ASSET_FILE_BYTES = 4 * 1024 * 1024

const owner = z
  .string()
  .trim()
  .min(1, 'is empty')
  .max(MAX_OWNER, `is longer than ${MAX_OWNER} characters`)
  .refine((s) => !/\p{Cc}/u.test(s), 'holds a control character')

/** An asset's context: each field optional (absent: not said here). */
export const assetContext = z.strictObject({
  criticality: z.enum(CRITICALITIES).optional(),
  exposure: z.enum(EXPOSURES).optional(),
  owner: owner.optional(),
})
export type AssetContext = z.infer<typeof assetContext>
export const CONTEXT_FIELDS = ['criticality', 'exposure', 'owner'] as const
export type ContextField = (typeof CONTEXT_FIELDS)[number]

const saysSomething = (c: AssetContext) => CONTEXT_FIELDS.some((f) => c[f] !== undefined)

/** A host's address as a key: an IPv4 or IPv6 address, in its usual text. */
export const hostAddress = z
  .string()
  .trim()
  .max(45)
  .transform((s, ctx) => {
    const a = parseAddress(s)
    if (!a) {
      ctx.addIssue({ code: 'custom', message: 'is not an IPv4 or IPv6 address' })
      return z.NEVER
    }
    return formatAddress(a)
  })

const range = z
  .string()
  .trim()
  .max(64)
  .superRefine((s, ctx) => {
    const r = parseRange(s)
    if ('problem' in r) ctx.addIssue({ code: 'custom', message: r.problem })
  })
const pattern = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    const problem = patternProblem(s)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
const tag = z.string().trim().min(1, 'is empty').max(64, 'is longer than 64 characters')

/** What a rule matches: an address range, a host-name pattern, or a target tag. */
export const ruleMatch = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('range'), range }),
  z.strictObject({ kind: z.literal('name'), pattern }),
  z.strictObject({ kind: z.literal('tag'), tag }),
])
export type RuleMatch = z.infer<typeof ruleMatch>

/** A rule: the assets it matches get the fields it sets (those no earlier rule set). */
export const assetRule = z
  .strictObject({ match: ruleMatch, ...assetContext.shape })
  .refine(saysSomething, {
    message: 'sets nothing: give a criticality, an exposure or an owner',
  })
export type AssetRule = z.infer<typeof assetRule>

const settingsOf = <K extends z.ZodType<string>>(key: K) =>
  z
    .record(key, assetContext.refine(saysSomething, { message: 'sets nothing' }))
    .refine((r) => Object.keys(r).length <= MAX_SETTINGS, `has more than ${MAX_SETTINGS} entries`)

/** An account's whole asset context. */
export const assetContextDocument = z.strictObject({
  rules: z.array(assetRule).max(MAX_RULES, `has more than ${MAX_RULES} rules`),
  targets: settingsOf(idParam),
  hosts: settingsOf(z.string().max(45)),
})
export type AssetContextDocument = z.infer<typeof assetContextDocument>
export const EMPTY_CONTEXT: AssetContextDocument = { rules: [], targets: {}, hosts: {} }

/** The version of the asset-context file this ScanDesk writes and reads. */
export const ASSET_FILE_VERSION = 1
/**
 * The file: {"scandeskAssetContext": 1, "rules": [...], "targets": {id: context},
 * "hosts": {address: context}}. Every field required; nothing else allowed.
 */
export const assetContextFile = z.strictObject({
  scandeskAssetContext: z.literal(ASSET_FILE_VERSION, {
    message: `must be ${ASSET_FILE_VERSION} (the file's format version)`,
  }),
  rules: assetContextDocument.shape.rules,
  targets: assetContextDocument.shape.targets,
  hosts: z
    .record(hostAddress, assetContext.refine(saysSomething, { message: 'sets nothing' }))
    .refine((r) => Object.keys(r).length <= MAX_SETTINGS, `has more than ${MAX_SETTINGS} entries`),
})
export type AssetContextFile = z.infer<typeof assetContextFile>

/** `path` of a zod issue as the file's reader sees it: rules[2].match.range. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(p))
          ? `${i ? '.' : ''}${String(p)}`
          : `[${JSON.stringify(String(p))}]`,
    )
    .join('')
}

/** The line (1-based) of character `at` of `text`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length

/**
 * An asset-context file's text checked against the schema, or why not, naming the line of a JSON
 * syntax error or the field of a schema error (the first one; the count of the others).
 */
export function parseAssetFile(
  text: string,
): { ok: true; file: AssetContextFile } | { ok: false; message: string } {
  let json: unknown
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (err) {
    const at = /position (\d+)/.exec(String((err as Error).message))
    const where = at ? ` at line ${lineAt(text, Number(at[1]))}` : ''
    return { ok: false, message: `The file is not valid JSON${where}. Nothing was imported.` }
  }
  if (typeof json !== 'object' || json === null || !('scandeskAssetContext' in json))
    return {
      ok: false,
      message:
        'The file is not a ScanDesk asset-context file (it has no "scandeskAssetContext"). Nothing was imported.',
    }
  const parsed = assetContextFile.safeParse(json)
  if (parsed.success) return { ok: true, file: parsed.data }
  const [first, ...rest] = parsed.error.issues
  const others = rest.length
    ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})`
    : ''
  const field = fieldPath(first!.path) || 'The file'
  // A record's key refused: its own words ("is not an IPv4 or IPv6 address"), not zod's.
  const inner = first!.code === 'invalid_key' ? first!.issues[0]?.message : undefined
  const said = inner ?? first!.message
  return { ok: false, message: `${field} ${said}${others}. Nothing was imported.` }
}

/** What the rules and settings know of one asset (a finding's host and target, a target). */
export interface AssetFacts {
  targetId?: string | null
  /** The host's address (a finding's host_ip, a host's ip). */
  hostAddress?: string | null
  /** The host's name (a host's hostname). */
  hostName?: string | null
  /** The target's address: an IP, a range (10.5.0.0/29) or a host name. */
  targetAddress?: string | null
  /** The target's tags. */
  tags?: readonly string[]
}

/** Where one field's value came from. */
export type ContextSource =
  | { kind: 'host'; address: string }
  | { kind: 'target'; targetId: string }
  | { kind: 'rule'; index: number; rule: AssetRule }

/** One field resolved: its value and where it came from; absent: unknown. */
export type ResolvedField<T> = { value: T; source: ContextSource }
export interface ResolvedContext {
  criticality?: ResolvedField<Criticality>
  exposure?: ResolvedField<Exposure>
  owner?: ResolvedField<string>
}

/** "10.0.0.0/8", "*.pay.example.com", "tag pci": what a rule matches, in words. */
export function matchText(m: RuleMatch): string {
  return m.kind === 'range' ? m.range : m.kind === 'name' ? m.pattern : `tag ${m.tag}`
}

/** "set here", "set on the target", "by rule 2: 10.0.0.0/8" (rules counted from 1). */
export function sourceText(source: ContextSource, here: 'host' | 'target'): string {
  if (source.kind === 'rule') return `by rule ${source.index + 1}: ${matchText(source.rule.match)}`
  if (source.kind === here) return 'set here'
  return source.kind === 'host' ? `set on host ${source.address}` : 'set on the target'
}

/** Whether rule `rule` matches the asset (a malformed rule matches nothing). */
export function ruleMatches(rule: AssetRule, facts: AssetFacts): boolean {
  const m = rule.match
  if (m.kind === 'tag')
    return (facts.tags ?? []).some((t) => t.trim().toLowerCase() === m.tag.toLowerCase())
  if (m.kind === 'name') {
    const target = facts.targetAddress?.trim() ?? ''
    const names = [facts.hostName ?? '', target && !isAddressLike(target) ? target : '']
    return names.some((n) => n !== '' && nameMatches(m.pattern, n))
  }
  const r = parseRange(m.range)
  if ('problem' in r) return false
  if (facts.hostAddress) {
    const a = parseAddress(facts.hostAddress)
    return !!a && rangeContains(r.range, a)
  }
  // A target without a host: its address, or every address of its range, in the rule's range.
  const t = facts.targetAddress ? parseRange(facts.targetAddress) : null
  return !!t && 'range' in t && rangeWithin(r.range, t.range)
}

const isAddressLike = (s: string) => /^[0-9a-fA-F:.]+(\/\d+)?$/.test(s) && /[:]|^\d/.test(s)

/**
 * The context of an asset, field by field: the host's explicit setting, else the target's, else
 * the first rule in the user's order that matches and sets the field, else unknown (absent).
 */
export function resolveAssetContext(doc: AssetContextDocument, facts: AssetFacts): ResolvedContext {
  const out: ResolvedContext = {}
  const address = facts.hostAddress ? parseAddress(facts.hostAddress) : null
  const hostKey = address ? formatAddress(address) : null
  const host = hostKey ? doc.hosts[hostKey] : undefined
  const target = facts.targetId ? doc.targets[facts.targetId] : undefined
  const set = <F extends ContextField>(field: F, value: unknown, source: ContextSource) => {
    if (value !== undefined && out[field] === undefined)
      (out as Record<string, unknown>)[field] = { value, source }
  }
  for (const field of CONTEXT_FIELDS) {
    if (hostKey) set(field, host?.[field], { kind: 'host', address: hostKey })
    if (facts.targetId) set(field, target?.[field], { kind: 'target', targetId: facts.targetId })
  }
  doc.rules.forEach((rule, index) => {
    if (CONTEXT_FIELDS.every((f) => out[f] !== undefined || rule[f] === undefined)) return
    if (!ruleMatches(rule, facts)) return
    for (const field of CONTEXT_FIELDS) set(field, rule[field], { kind: 'rule', index, rule })
  })
  return out
}

/** Where an explicit setting is: a target by id, a host by address. */
export const assetPlace = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('target'), id: idParam }),
  z.strictObject({ kind: z.literal('host'), address: hostAddress }),
])
export type AssetPlace = z.input<typeof assetPlace>

/** Inputs of the asset-context channels. */
export const assetInputs = {
  /** The account's asset context: its rules, in order, and its explicit settings. */
  'assets.get': z.strictObject({ accountId }),
  /** Sets a target's or host's context (its fields replaced), or clears it (null). */
  'assets.set': z.strictObject({ accountId, place: assetPlace, context: assetContext.nullable() }),
  /** Replaces the account's rules (in the order given: the first match of a field wins). */
  'assets.setRules': z.strictObject({
    accountId,
    rules: z.array(assetRule).max(MAX_RULES, `has more than ${MAX_RULES} rules`),
  }),
  /**
   * Writes the account's context as an asset-context file where the user chooses (Electron: the
   * save dialog; browser mode: a typed path, judged like every path), atomically.
   */
  'assets.export': z.strictObject({
    accountId,
    path: absolutePath.optional(),
    replace: z.boolean().optional(),
  }),
  /**
   * Reads an asset-context file the user chooses (judged against `accountIds[0]`'s folders),
   * checks it whole, and applies it to every account of `accountIds` in one transaction: each
   * account's rules become the file's, the file's explicit settings replace those of the same
   * targets and hosts (others kept). Refused whole: no account changes.
   */
  'assets.import': z.strictObject({
    accountIds: z
      .array(accountId)
      .min(1, 'names no account')
      .max(100)
      .refine((ids) => new Set(ids).size === ids.length, 'names an account twice'),
    path: absolutePath.optional(),
  }),
}

/** Outputs of the asset-context channels. */
export interface AssetOutputs {
  'assets.get': AssetContextDocument
  'assets.set': AssetContextDocument
  'assets.setRules': AssetContextDocument
  'assets.export': { saved: true; path: string } | { saved: false; suggestedPath?: string }
  'assets.import':
    | { imported: true; accounts: number; rules: number; targets: number; hosts: number }
    | { imported: false; suggestedFolder?: string }
}

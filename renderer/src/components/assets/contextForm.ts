import type { AssetContext } from '@contract/intel/asset-context'
import type { Criticality, Exposure } from '@contract/intel/priority'
import type { ContextForm } from './AssetContextFields.vue'

/** A context as the form holds it ("" for a field left unsaid). */
export function formOf(c: AssetContext | undefined): ContextForm {
  return { criticality: c?.criticality ?? '', exposure: c?.exposure ?? '', owner: c?.owner ?? '' }
}

/** The form's fields as a context: those said only (the owner trimmed). */
export function contextOf(f: ContextForm): AssetContext {
  const out: AssetContext = {}
  if (f.criticality) out.criticality = f.criticality as Criticality
  if (f.exposure) out.exposure = f.exposure as Exposure
  if (f.owner.trim()) out.owner = f.owner.trim()
  return out
}

/** Field errors by the field's last name (rules.0.owner → owner; match.range → match). */
export function errorsByField(fieldErrors: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const parts = key.split('.')
    const name = parts.includes('match') ? 'match' : (parts.at(-1) ?? key)
    out[name] ??= messages[0] ?? ''
  }
  return out
}

import { reactive, ref } from 'vue'
import type { AppError } from '@contract/errors'
import { issuesToFieldErrors, serverFieldErrors, type IssueLike } from '@/utils/fieldErrors'

/**
 * Error state of one form: a message per field and one alert for the rest. `labels` names the
 * form's fields; `aliases` maps the service's field names to them (current_password → current).
 * A lower-case message gets its field's label in front: "Current password is incorrect".
 */
export function useFormErrors<F extends string>(
  labels: Record<F, string>,
  aliases: Partial<Record<string, NoInfer<F>>> = {},
) {
  const fields = reactive<Partial<Record<F, string>>>({}) as Partial<Record<F, string>>
  const alert = ref<string | null>(null)

  const fieldOf = (key: string): F | undefined =>
    key in labels ? (key as F) : (aliases[key] as F | undefined)
  const sentence = (field: F, message: string) =>
    /^[a-z]/.test(message) ? `${labels[field]} ${message}` : message

  function clear(): void {
    for (const key of Object.keys(fields)) delete fields[key as F]
    alert.value = null
  }

  function place(byKey: Record<string, string>): string[] {
    const rest: string[] = []
    for (const [key, message] of Object.entries(byKey)) {
      const field = fieldOf(key)
      if (field) fields[field] = sentence(field, message)
      else
        rest.push(key === '_' || key === 'body' ? message : `${key.replace(/_/g, ' ')} ${message}`)
    }
    return rest
  }

  /** Shows the issues of a local check (the catalog's zod schema); true when there were none. */
  function showIssues(issues: readonly IssueLike[]): boolean {
    clear()
    const rest = place(issuesToFieldErrors(issues))
    if (rest.length) alert.value = rest.join(' ')
    return issues.length === 0
  }

  /** Shows a failed call: field errors under their fields, everything else in the alert. */
  function showError(error: AppError): void {
    clear()
    const byKey = serverFieldErrors(error.fieldErrors)
    const rest = place(byKey)
    const placed = Object.keys(byKey).length - rest.length
    if (rest.length) alert.value = [error.message, ...rest].join(' ')
    else if (placed === 0) alert.value = error.message
  }

  /** Sets one field's message (for checks no schema covers, such as "passwords differ"). */
  function set(field: F, message: string): void {
    fields[field] = sentence(field, message)
  }

  return { fields, alert, clear, showIssues, showError, set }
}

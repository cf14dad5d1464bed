/** A zod-like issue: only what the forms need (keeps zod's types out of component code). */
export interface IssueLike {
  path: readonly PropertyKey[]
  message: string
}

/** Turns validation issues into the first message per top-level field. */
export function issuesToFieldErrors(issues: readonly IssueLike[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_'
    out[key] ??= issue.message
  }
  return out
}

/** Turns server field errors (dotted path → messages) into the first message per top-level field. */
export function serverFieldErrors(fieldErrors: Record<string, string[]> | undefined) {
  const out: Record<string, string> = {}
  for (const [path, messages] of Object.entries(fieldErrors ?? {})) {
    const key = path.split('.')[0] || '_'
    if (messages.length) out[key] ??= messages[0]
  }
  return out
}

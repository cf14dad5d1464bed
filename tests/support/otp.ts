// Reading what the sandbox writes to its log for a user, `[<tag>] <email>: <value>`: one-time
// codes (`[otp] <email>: <code>`), recovery codes and link tokens. Shared by the integration tests
// (a recorded sandbox) and the end-to-end journeys (a sandbox logging into an array).

/** The value of the newest `[tag] email: value` line at or after index `from`, if any. */
export function findLogged(
  lines: readonly string[],
  tag: string,
  email: string,
  from = 0,
): string | undefined {
  const prefix = `[${tag}] ${email}: `
  return lines
    .slice(from)
    .findLast((l) => l.startsWith(prefix))
    ?.slice(prefix.length)
}

/** The value of the newest `[tag] email: value` line; throws when there is none. */
export function lastLogged(lines: readonly string[], tag: string, email: string): string {
  const value = findLogged(lines, tag, email)
  if (value === undefined) throw new Error(`nothing logged as ${tag} for ${email}`)
  return value
}

/** The newest one-time code (six digits) logged for `email` at or after index `from`, if any. */
export function findOtp(lines: readonly string[], email: string, from = 0): string | undefined {
  return /^\d{6}/.exec(findLogged(lines, 'otp', email, from) ?? '')?.[0]
}

/** The newest one-time code logged for `email` at or after index `from`; throws when none is. */
export function otpFor(lines: readonly string[], email: string, from = 0): string {
  const code = findOtp(lines, email, from)
  if (!code) throw new Error(`no one-time code for ${email} in the sandbox log`)
  return code
}

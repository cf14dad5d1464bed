/**
 * The only kind of address ScanDesk hands to the system browser: https, no user name or
 * password in it, no control characters or spaces, at most 2,048 characters. Returns the
 * normalised address, or null for anything else (http, file:, smb:, javascript:, custom schemes,
 * app:// …).
 */
export function externalUrl(url: string): string | null {
  if (typeof url !== 'string' || url.length > 2048) return null
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return null
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' || !parsed.hostname) return null
  if (parsed.username || parsed.password) return null
  return parsed.href
}

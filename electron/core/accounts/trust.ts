import { X509Certificate } from 'node:crypto'
import { isLoopbackHost } from '@contract/accounts'
import { fail, type TrustConfirmation } from '@contract/errors'

/** A change of what main trusts for one address, asked for by the renderer. */
export interface TrustChange {
  baseUrl: string
  /** A CA bundle the requests to that address will trust (PEM). */
  caBundle?: string | null
  /** Plain http to a host that is not this computer. */
  allowInsecureHttp?: boolean
}

/** How the host confirms a change of trust, or null where it has no dialog (browser mode). */
export type ConfirmTrust =
  ((request: TrustConfirmation & { title: string }) => Promise<boolean>) | null

/**
 * The confirmation of the host: Electron main's dialog (a host without one declines), none in
 * browser mode (the user types the phrase instead).
 */
export function hostConfirm(
  mode: 'electron' | 'browser',
  host: { confirmTrust?: NonNullable<ConfirmTrust> },
): ConfirmTrust {
  if (mode === 'browser') return null
  return host.confirmTrust ?? (async () => false)
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/** Subject and SHA-256 fingerprint of each certificate of a bundle, for people to compare. */
export function describeBundle(pem: string): string[] {
  return (pem.match(PEM) ?? []).map((block) => {
    try {
      const cert = new X509Certificate(block)
      const subject = /CN=([^\n,]+)/.exec(cert.subject)?.[1] ?? cert.subject.split('\n')[0]
      return `“${subject}”, SHA-256 ${cert.fingerprint256}`
    } catch {
      return 'a certificate ScanDesk cannot read (it will be refused when used)'
    }
  })
}

/** What the change trusts, one sentence each, or [] when it trusts nothing new. */
export function trustLines(change: TrustChange): string[] {
  const url = new URL(change.baseUrl)
  const lines: string[] = []
  if (change.caBundle) {
    const certs = describeBundle(change.caBundle)
    lines.push(
      `Trust ${certs.length === 1 ? 'this certificate authority' : `these ${certs.length} certificate authorities`} for ${url.host}, in addition to the system's: ${certs.join('; ')}.`,
    )
  }
  if (change.allowInsecureHttp && url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    lines.push(
      `Talk to ${url.host} over plain HTTP: anyone on the network path can read and change the API key, the password and every answer.`,
    )
  return lines
}

/**
 * Lets a change of trust through only once the user confirmed it where the renderer cannot
 * answer for them: Electron main's own dialog; in browser mode (no dialog of main's own) the
 * phrase typed by the user. Otherwise CANCELLED (declined) or CONFIRMATION_REQUIRED with the
 * lines and the phrase; nothing is changed or sent before.
 */
export async function requireTrust(
  change: TrustChange,
  confirm: ConfirmTrust,
  typed: string | undefined,
): Promise<void> {
  const lines = trustLines(change)
  if (lines.length === 0) return
  const phrase = `trust ${new URL(change.baseUrl).host}`
  if (confirm) {
    if (await confirm({ title: 'Change what ScanDesk trusts?', lines, phrase })) return
    fail('CANCELLED', 'Not confirmed: nothing was changed and nothing was sent.')
  }
  if (typed?.trim().toLowerCase() === phrase.toLowerCase()) return
  fail(
    'CONFIRMATION_REQUIRED',
    typed === undefined
      ? `This changes what ScanDesk trusts. Type “${phrase}” to confirm.`
      : `That is not “${phrase}”: nothing was changed.`,
    { confirmation: { lines, phrase } },
  )
}

import tls from 'node:tls'
import { describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { describeBundle, hostConfirm, requireTrust, trustLines } from './trust'

const PEM = tls.rootCertificates[0]
const TWO = `${tls.rootCertificates[0]}\n${tls.rootCertificates[1]}`

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof AppFailure)) throw new Error('expected a refusal')
  return err.error
}

describe('what a change trusts', () => {
  it('names each certificate of a bundle with its SHA-256 fingerprint', () => {
    const lines = describeBundle(TWO)
    expect(lines).toHaveLength(2)
    for (const line of lines) expect(line).toMatch(/^“.+”, SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  })

  it('says nothing for https with the system roots or plain http to this computer', () => {
    expect(trustLines({ baseUrl: 'https://scan.example.test' })).toEqual([])
    expect(trustLines({ baseUrl: 'http://127.0.0.1:4010', allowInsecureHttp: true })).toEqual([])
  })

  it('names the bundle and plain http to another host', () => {
    const lines = trustLines({
      baseUrl: 'http://scan.example.test:8080',
      caBundle: TWO,
      allowInsecureHttp: true,
    })
    expect(lines[0]).toMatch(/^Trust these 2 certificate authorities for scan\.example\.test:8080/)
    expect(lines[1]).toMatch(/^Talk to scan\.example\.test:8080 over plain HTTP/)
  })
})

describe('confirming it', () => {
  const change = { baseUrl: 'https://scan.example.test', caBundle: PEM }

  it('in Electron: main’s own dialog decides, whatever the renderer typed', async () => {
    const asked: string[][] = []
    await requireTrust(change, async (r) => (asked.push(r.lines), true), undefined)
    expect(asked).toHaveLength(1)
    const declined = await refusal(
      requireTrust(change, async () => false, 'trust scan.example.test'),
    )
    expect(declined.code).toBe('CANCELLED')
  })

  it('in Electron without a dialog: declined', async () => {
    const confirm = hostConfirm('electron', {})
    expect((await refusal(requireTrust(change, confirm, undefined))).code).toBe('CANCELLED')
  })

  it('in browser mode: the typed phrase, any case, and nothing else', async () => {
    const confirm = hostConfirm('browser', { confirmTrust: async () => true })
    expect(confirm).toBeNull()
    const asked = await refusal(requireTrust(change, confirm, undefined))
    expect(asked).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      confirmation: { phrase: 'trust scan.example.test' },
    })
    expect(asked.message).toContain('Type “trust scan.example.test” to confirm')
    const wrong = await refusal(requireTrust(change, confirm, 'trust evil.example.test'))
    expect(wrong.message).toContain('That is not “trust scan.example.test”')
    await requireTrust(change, confirm, '  Trust SCAN.example.test ')
  })

  it('lets a change that trusts nothing new through without asking', async () => {
    await requireTrust({ baseUrl: 'https://scan.example.test' }, async () => false, undefined)
  })
})

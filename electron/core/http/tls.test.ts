import fs from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { createAccountClient } from './client'
import { makeTestCertificate } from './test-cert'

// A certificate authority of our own, as an on-premises deployment has (made with openssl).
let dir: string
let server: https.Server
let baseUrl: string
let cert: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-tls-'))
  const made = makeTestCertificate(dir, 'ScanDesk test CA')
  cert = made.cert
  server = https.createServer({ key: made.key, cert }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  fs.rmSync(dir, { recursive: true, force: true })
})

const options = () => ({
  baseUrl,
  apiKey: 'k',
  getAuth: () => ({ scheme: 'Bearer' as const, token: 't' }),
  release: 'latest' as const,
  limits: { retries: 0 },
})

describe('verifying TLS', () => {
  it('refuses a certificate the system does not trust', async () => {
    const err = await createAccountClient(options())
      .call('scans.upcoming')
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.message).toMatch(/could not be verified/)
  })

  it('trusts it when the account brings its CA bundle', async () => {
    const client = createAccountClient({ ...options(), caBundle: cert })
    await expect(client.call('scans.upcoming')).resolves.toEqual({ data: [] })
    client.close()
  })
})

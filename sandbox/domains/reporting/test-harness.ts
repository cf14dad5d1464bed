// Test-only: a sandbox with the whole catalog, the engine's small test domain (users of two
// organizations) and this reporting domain, reached over real HTTP on 127.0.0.1.
import { afterAll, beforeAll } from 'vitest'
import { operations } from '@contract/catalog/index'
import { call, testDomain } from '../../engine/testing'
import { startSandboxWith, type RunningSandbox } from '../../server'
import { reportingDomain } from './index'

export { call }

/** Starts the sandbox on a free loopback port (test mode, silent). */
export function startReportingSandbox(): Promise<RunningSandbox> {
  return startSandboxWith(
    { port: 0, testMode: true, log: () => {} },
    { operations, domains: [testDomain, reportingDomain] },
  )
}

/** GETs raw bytes with a Bearer token. */
export async function download(
  sb: RunningSandbox,
  path: string,
  token: string,
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    headers: { 'x-api-key': sb.apiKey, authorization: `Bearer ${token}` },
  })
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers }
}

/** One sandbox for a file's tests, with the admin's session (read them inside the tests). */
export function useReportingSandbox(): { sb: RunningSandbox; admin: string } {
  const s = { sb: null as unknown as RunningSandbox, admin: '' }
  beforeAll(async () => {
    s.sb = await startReportingSandbox()
    s.admin = s.sb.sessionFor('admin@sandbox.test')
  })
  afterAll(() => s.sb?.close())
  return s
}

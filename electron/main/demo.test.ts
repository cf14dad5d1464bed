// The demo service main carries: the real sandbox behind the core's demo factory.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startDemoService } from './demo'

async function signIn(baseUrl: string, apiKey: string, username: string, password: string) {
  const res = await fetch(`${baseUrl}/auth/sign_in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ username, password }),
  })
  return { status: res.status, body: (await res.json()) as { token?: string } }
}

describe('the demo service main carries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-demo-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('runs the sandbox on a loopback port with the demo administrator, who signs in without 2FA', async () => {
    const demo = await startDemoService({ log: () => {} })
    try {
      expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(demo.username).toBe('demo@sandbox.test')
      expect(demo.password).toBe('sandbox-password')
      const answer = await signIn(demo.baseUrl, demo.apiKey, demo.username, demo.password)
      expect(answer.status).toBe(200)
      expect(answer.body.token).toEqual(expect.any(String))
      const wrong = await signIn(demo.baseUrl, demo.apiKey, demo.username, 'not-the-password')
      expect(wrong.status).toBe(401)
    } finally {
      await demo.close()
    }
  })

  it('gives each run its own free port', async () => {
    const [a, b] = await Promise.all([
      startDemoService({ log: () => {} }),
      startDemoService({ log: () => {} }),
    ])
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl)
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('keeps its state in the data file when given one', async () => {
    const dataFile = join(dir, 'demo.json')
    const demo = await startDemoService({ dataFile, log: () => {} })
    await signIn(demo.baseUrl, demo.apiKey, demo.username, demo.password)
    await demo.close()
    expect(existsSync(dataFile)).toBe(true)
    expect(() => JSON.parse(readFileSync(dataFile, 'utf8'))).not.toThrow()
    const again = await startDemoService({ dataFile, log: () => {} })
    try {
      const answer = await signIn(again.baseUrl, again.apiKey, again.username, again.password)
      expect(answer.status).toBe(200)
    } finally {
      await again.close()
    }
  })
})

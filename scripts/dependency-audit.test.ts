// `npm run security:audit` runs the real `npm audit --omit=dev` over the project's lockfile, with
// npm's registry pointed at a stand-in advisory service on 127.0.0.1 (npm_config_registry): one
// that reports a high advisory, one that reports nothing, one that refuses (as the registry does
// on our machines: 405), and one that never answers (bounded by SCANDESK_AUDIT_TIMEOUT_MS).
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verdictOf } from './dependency-audit'

const root = resolve(__dirname, '..')
const BULK = '/-/npm/v1/security/advisories/bulk'

type Answer = 'high' | 'nothing' | 'refuse' | 'hang'

interface Outcome {
  code: number | null
  stdout: string
  ms: number
  /** The packages and versions npm asked the service about. */
  asked: Record<string, string[]>
}

const servers: http.Server[] = []
const outcomes = new Map<Answer, Outcome>()
const cache = mkdtempSync(join(tmpdir(), 'scandesk-audit-cache-'))

/** A stand-in for the registry's advisory service answering `answer`. */
async function advisoryService(answer: Answer, asked: Record<string, string[]>): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== BULK) return void res.writeHead(404).end()
      const raw = Buffer.concat(chunks)
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw
      Object.assign(asked, JSON.parse(body.toString('utf8')) as Record<string, string[]>)
      if (answer === 'hang') return // never answers
      if (answer === 'refuse') return void res.writeHead(405, { allow: 'GET,HEAD' }).end()
      const advisories =
        answer === 'high'
          ? {
              axios: [
                {
                  id: 1,
                  url: 'https://advisories.example/1',
                  title: 'Stand-in advisory for axios',
                  severity: 'high',
                  vulnerable_versions: '<=99.0.0',
                  cwe: [],
                  cvss: { score: 7.5, vectorString: null },
                },
              ],
            }
          : {}
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(advisories))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

/** Runs `npm run security:audit`'s script against the stand-in service. */
async function audit(answer: Answer): Promise<Outcome> {
  const asked: Record<string, string[]> = {}
  const registry = await advisoryService(answer, asked)
  const started = Date.now()
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'scripts', 'dependency-audit.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          npm_config_registry: registry,
          npm_config_cache: join(cache, answer),
          npm_config_fetch_retries: '0',
          SCANDESK_AUDIT_TIMEOUT_MS: answer === 'hang' ? '8000' : '120000',
        },
        timeout: 150_000,
      },
      (err, stdout) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0
        done({ code, stdout, ms: Date.now() - started, asked })
      },
    )
  })
}

beforeAll(async () => {
  // The four runs at once: each is mostly npm starting and reading the lockfile.
  const answers: Answer[] = ['high', 'nothing', 'refuse', 'hang']
  const results = await Promise.all(answers.map(audit))
  answers.forEach((answer, i) => outcomes.set(answer, results[i]))
}, 180_000)

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  }
  rmSync(cache, { recursive: true, force: true })
})

describe('the dependency audit in CI', () => {
  it('asks about the production dependencies only', () => {
    const asked = outcomes.get('nothing')!.asked
    for (const name of ['axios', 'axios-retry', 'better-sqlite3', 'papaparse', 'zod'])
      expect(Object.keys(asked), name).toContain(name)
    for (const dev of ['vite', 'vitest', 'electron', 'vue', 'eslint'])
      expect(Object.keys(asked), dev).not.toContain(dev)
  })

  it('fails on a high advisory, naming the package, the advisory and what depends on it', () => {
    const { code, stdout } = outcomes.get('high')!
    expect(code).toBe(1)
    expect(stdout).toMatch(/^dependency audit: 2 known vulnerabilities .*\(critical 0, high 2,/m)
    expect(stdout).toMatch(
      /^ {2}high axios: Stand-in advisory for axios \(https:\/\/advisories\.example\/1\)/m,
    )
    expect(stdout).toMatch(/^ {2}high axios-retry: through axios/m)
    expect(stdout).toMatch(/^dependency audit: FAILED: 2 high or critical/m)
  })

  it('passes when the service knows of nothing', () => {
    const { code, stdout } = outcomes.get('nothing')!
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(
      'dependency audit: no known vulnerability in the production dependencies.',
    )
  })

  it('passes, saying plainly that nothing was audited, when the service refuses', () => {
    const { code, stdout } = outcomes.get('refuse')!
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /^dependency audit: production dependencies were NOT audited: the advisory service could not be asked \(405 Method Not Allowed/,
    )
  })

  it('passes within its bound, saying so, when the service never answers', () => {
    const { code, stdout, ms } = outcomes.get('hang')!
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /^dependency audit: production dependencies were NOT audited: npm audit did not finish within 8 s/,
    )
    expect(ms).toBeLessThan(30_000)
  })
})

describe('reading a report', () => {
  it('reports moderate and low advisories without failing', () => {
    const report = {
      auditReportVersion: 2,
      vulnerabilities: {
        papaparse: {
          severity: 'moderate',
          range: '<5.8.0',
          via: [{ title: 'Slow parse', url: 'https://advisories.example/2' }],
          fixAvailable: true,
        },
      },
      metadata: { vulnerabilities: { info: 0, low: 0, moderate: 1, high: 0, critical: 0 } },
    }
    const verdict = verdictOf({ timedOut: false, stdout: JSON.stringify(report), exitCode: 1 }, 1)
    expect(verdict.fail).toBe(false)
    expect(verdict.lines).toEqual([
      'dependency audit: 1 known vulnerability in the production dependencies (critical 0, high 0, moderate 1, low 0, info 0).',
      '  moderate papaparse <5.8.0: Slow parse (https://advisories.example/2) (a fix is available)',
    ])
  })

  it('fails when npm cannot audit the project itself (no lockfile)', () => {
    const stdout = JSON.stringify({
      error: { code: 'ENOLOCK', summary: 'This command requires an existing lockfile.' },
    })
    expect(verdictOf({ timedOut: false, stdout, exitCode: 1 }, 1).fail).toBe(true)
  })

  it('keeps what a registry says to one printable line', () => {
    const stdout = JSON.stringify({ message: `bad\n\u001b[31mred${'x'.repeat(500)}` })
    const [line] = verdictOf({ timedOut: false, stdout, exitCode: 1 }, 1).lines
    expect(line.includes('\n') || line.includes('\u001b')).toBe(false)
    expect(line.length).toBeLessThan(400)
  })
})

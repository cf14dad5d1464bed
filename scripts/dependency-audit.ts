// `npm run security:audit` (run by .ci/run): `npm audit --omit=dev` over the lockfile, bounded by
// a timeout, saying plainly what it could and could not do (docs/security.md, "Dependencies").
// - The advisory service answered: every known vulnerability of a production dependency is
//   listed; a high or critical one fails (exit 1), moderate and low ones are reported only.
// - It did not answer (an error status, no network, or not within the timeout): says that the
//   dependencies were NOT audited and why, and passes (exit 0), so a machine without the
//   advisory service (as ours) neither fails CI nor hangs it.
// - npm cannot audit at all because of the project (no lockfile): fails.
// SCANDESK_AUDIT_TIMEOUT_MS sets the bound (default 60 s); npm's own settings (registry, cache)
// come from the environment as usual.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(__dirname, '..')
const DEFAULT_TIMEOUT_MS = 60_000
const FAILING = ['critical', 'high'] as const
const SEVERITIES = ['critical', 'high', 'moderate', 'low', 'info'] as const

/** What one run of npm audit gave: its output, or that it was stopped at the bound. */
export type AuditRun = { timedOut: true } | { timedOut: false; stdout: string; exitCode: number }

/** The verdict of an audit: the lines to print and whether CI fails. */
export interface Verdict {
  lines: string[]
  fail: boolean
}

type Report = {
  vulnerabilities?: Record<
    string,
    { severity?: string; via?: unknown[]; range?: string; fixAvailable?: unknown }
  >
  metadata?: { vulnerabilities?: Partial<Record<(typeof SEVERITIES)[number], number>> }
  error?: { code?: string; summary?: string; detail?: string }
  message?: string
  statusCode?: number
}

/** One line of at most 200 printable characters (what a registry says is not trusted). */
function oneLine(text: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = String(text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
  return clean.trim().slice(0, 200)
}

/** The advisories a package is vulnerable through (title and address), or the packages. */
function advisories(via: unknown[] | undefined): string {
  const titles = (via ?? []).map((v) => {
    if (typeof v === 'string') return `through ${oneLine(v)}`
    const { title, url } = v as { title?: string; url?: string }
    return url ? `${oneLine(title)} (${oneLine(url)})` : oneLine(title)
  })
  return [...new Set(titles.filter(Boolean))].join('; ')
}

/** Reads npm audit's JSON output into what to print and whether to fail. */
export function verdictOf(run: AuditRun, timeoutMs: number): Verdict {
  const notAudited = (why: string): Verdict => ({
    lines: [
      `dependency audit: production dependencies were NOT audited: ${why}. Audit them where the advisory service answers (npm audit --omit=dev).`,
    ],
    fail: false,
  })
  if (run.timedOut)
    return notAudited(
      `npm audit did not finish within ${Math.round(timeoutMs / 1000)} s (the advisory service did not answer)`,
    )
  let report: Report
  try {
    report = JSON.parse(run.stdout) as Report
  } catch {
    return notAudited(`npm audit gave no report (exit code ${run.exitCode})`)
  }
  const counts = report.metadata?.vulnerabilities
  if (!counts) {
    const code = report.error?.code ?? ''
    if (/^(ENOLOCK|EAUDITNOLOCK)$/.test(code))
      return {
        lines: [
          `dependency audit: FAILED: npm cannot audit this project (${code}): ${oneLine(report.error?.summary)}`,
        ],
        fail: true,
      }
    return notAudited(
      `the advisory service could not be asked (${oneLine(report.message ?? report.error?.summary ?? 'no answer')})`,
    )
  }
  const total = SEVERITIES.reduce((sum, s) => sum + (counts[s] ?? 0), 0)
  const failing = FAILING.reduce((sum, s) => sum + (counts[s] ?? 0), 0)
  const lines = [
    total === 0
      ? 'dependency audit: no known vulnerability in the production dependencies.'
      : `dependency audit: ${total} known vulnerabilit${total === 1 ? 'y' : 'ies'} in the production dependencies (${SEVERITIES.map((s) => `${s} ${counts[s] ?? 0}`).join(', ')}).`,
  ]
  const rank = (s: string | undefined) => SEVERITIES.indexOf((s ?? 'info') as never)
  const packages = Object.entries(report.vulnerabilities ?? {}).sort(
    ([a, x], [b, y]) => rank(x.severity) - rank(y.severity) || a.localeCompare(b),
  )
  for (const [name, v] of packages)
    lines.push(
      `  ${[v.severity, name, v.range].map(oneLine).filter(Boolean).join(' ')}: ${advisories(v.via)}${v.fixAvailable ? ' (a fix is available)' : ''}`,
    )
  if (failing > 0)
    lines.push(
      `dependency audit: FAILED: ${failing} high or critical; update the package (package.json pins exact versions) and its lockfile entry.`,
    )
  return { lines, fail: failing > 0 }
}

/** Runs `npm audit --omit=dev --json` in the project, stopped after `timeoutMs`. */
export function runAudit(timeoutMs: number): Promise<AuditRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['audit', '--omit=dev', '--json'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: process.env,
    })
    const chunks: Buffer[] = []
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (timedOut) resolvePromise({ timedOut: true })
      else
        resolvePromise({
          timedOut: false,
          stdout: Buffer.concat(chunks).toString('utf8'),
          exitCode: code ?? -1,
        })
    })
  })
}

async function main(): Promise<void> {
  const timeoutMs = Number(process.env.SCANDESK_AUDIT_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS
  const verdict = verdictOf(await runAudit(timeoutMs), timeoutMs)
  for (const line of verdict.lines) console.log(line)
  process.exitCode = verdict.fail ? 1 : 0
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.log(`dependency audit: FAILED: npm audit could not be run (${oneLine(String(err))})`)
    process.exitCode = 1
  })

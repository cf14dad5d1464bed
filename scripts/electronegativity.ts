// `npm run security:electronegativity`: Doyensec's Electronegativity over electron/ (sources, no
// tests) and the built renderer (out/renderer, built first when missing) in one staged folder,
// so its global checks (CSP, navigation limits, permission handlers) see main and renderer
// together. Every HIGH or MEDIUM finding must be listed in docs/security.md (check id, file and a
// piece of the flagged code) with why it is acceptable; an unlisted finding, or a listed one that
// is no longer found, fails. The tool is installed at a pinned version into its own folder
// (node_modules/.cache), not into the project: it brings an old ESLint and TypeScript of its own.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Papa from 'papaparse'

const VERSION = '1.10.3'
const root = resolve(__dirname, '..')
const toolDir = join(root, 'node_modules', '.cache', `electronegativity-${VERSION}`)
const bin = join(toolDir, 'node_modules', '.bin', 'electronegativity')

/** One finding as the CSV reports it. */
export interface Finding {
  check: string
  severity: string
  file: string
  sample: string
}

/** One accepted finding of docs/security.md: `| CHECK | file | code piece | why |`. */
export interface Accepted {
  check: string
  file: string
  sample: string
}

/** The HIGH and MEDIUM findings of Electronegativity's CSV output. */
export function findingsOf(csv: string): Finding[] {
  // papaparse: quoted fields may hold commas, doubled quotes and line breaks (a flagged sample
  // spanning lines); the first row is the header.
  const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1)
  return rows
    .map(([check = '', severity = '', , file = '', , sample = '']) => ({
      check: check.trim(),
      severity: severity.trim(),
      file: file.trim(),
      sample: sample.trim(),
    }))
    .filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM')
}

/** The accepted findings listed in docs/security.md's table. */
export function acceptedOf(markdown: string): Accepted[] {
  return markdown
    .split('\n')
    .filter((line) => /^\|\s*[A-Z_]+_CHECK\s*\|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim().replace(/^`|`$/g, '')))
    .map(([, check, file, sample]) => ({ check, file, sample }))
}

/** Findings nobody accepted, and accepted entries that match no finding any more. */
export function compare(findings: Finding[], accepted: Accepted[]) {
  const matches = (f: Finding, a: Accepted) =>
    f.check === a.check && f.file === a.file && (a.sample === '' || f.sample.includes(a.sample))
  return {
    unlisted: findings.filter((f) => !accepted.some((a) => matches(f, a))),
    stale: accepted.filter((a) => !findings.some((f) => matches(f, a))),
  }
}

function ensureTool(): void {
  if (existsSync(bin)) return
  console.log(`installing @doyensec/electronegativity@${VERSION} into ${toolDir}`)
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      toolDir,
      '--no-audit',
      '--no-fund',
      '--no-save',
      `@doyensec/electronegativity@${VERSION}`,
    ],
    { stdio: 'inherit' },
  )
}

function main(): void {
  ensureTool()
  if (!existsSync(join(root, 'out', 'renderer', 'index.html')))
    execFileSync('npm', ['run', 'build:renderer'], { cwd: root, stdio: 'inherit' })
  const stage = mkdtempSync(join(tmpdir(), 'scandesk-electronegativity-'))
  try {
    cpSync(join(root, 'electron'), join(stage, 'electron'), {
      recursive: true,
      filter: (src) => !/\.test\.ts$/.test(src),
    })
    cpSync(join(root, 'out', 'renderer'), join(stage, 'renderer'), { recursive: true })
    cpSync(join(root, 'package.json'), join(stage, 'package.json'))
    const electron = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>
      }
    ).devDependencies.electron
    const csv = join(stage, 'findings.csv')
    execFileSync(
      bin,
      ['-i', stage, '-e', electron, '-r', '-s', 'medium', '-v', 'false', '-o', csv],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: 5 * 60_000,
      },
    )
    const findings = findingsOf(readFileSync(csv, 'utf8'))
    const accepted = acceptedOf(readFileSync(join(root, 'docs', 'security.md'), 'utf8'))
    const { unlisted, stale } = compare(findings, accepted)
    console.log(
      `Electronegativity ${VERSION} (Electron ${electron}): ${findings.length} HIGH/MEDIUM finding(s), ${findings.length - unlisted.length} justified in docs/security.md`,
    )
    for (const f of unlisted)
      console.log(`  NOT LISTED: ${f.check} (${f.severity}) ${f.file}: ${f.sample.slice(0, 120)}`)
    for (const a of stale)
      console.log(`  NO LONGER FOUND (remove it): ${a.check} ${a.file}: ${a.sample}`)
    if (unlisted.length || stale.length) process.exit(1)
  } finally {
    rmSync(stage, { recursive: true, force: true })
  }
}

if (require.main === module) main()

// Every test file of the repository belongs to exactly one of vitest.config.mts's projects. The
// node-side projects name their folders ('units' the core, contract and sandbox with modules kept;
// 'node' the rest, isolated), so a test put in a new folder would otherwise be run by none of them
// and never fail; a file matched by two would run twice. Vitest itself is asked which files each
// project runs (`vitest list --filesOnly`), and the answer is compared with the test files on disk.
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
const work = mkdtempSync(join(tmpdir(), 'scandesk-projects-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Folders that hold no test of ours: dependencies, builds, Git's own. */
const NOT_OURS = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', 'coverage'])
/** The projects whose workers keep modules between files (isolate: false). */
const SHARED_MODULES = new Set(['units', 'renderer'])
const TEST_FILE = /\.(test|spec)\.(ts|mts|cts|js|mjs)$/

/** The repository's test files, relative to its root with '/' between folders. */
function testFilesOnDisk(dir = root): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!NOT_OURS.has(entry.name)) found.push(...testFilesOnDisk(join(dir, entry.name)))
    } else if (TEST_FILE.test(entry.name)) {
      found.push(relative(root, join(dir, entry.name)).split(sep).join('/'))
    }
  }
  return found
}

/** The files each project of the config runs, as vitest lists them. */
async function filesByVitest(): Promise<Array<{ file: string; project: string }>> {
  const out = join(work, 'list.json')
  await run(
    process.execPath,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'list', '--filesOnly', `--json=${out}`],
    { cwd: root, timeout: 60_000, env: { ...process.env, CI: 'true' } },
  )
  const listed = JSON.parse(readFileSync(out, 'utf8')) as Array<{
    file: string
    projectName: string
  }>
  return listed.map((l) => ({
    file: relative(root, l.file).split(sep).join('/'),
    project: l.projectName,
  }))
}

describe('the test projects', () => {
  it('run every test file of the repository, each in one project only', async () => {
    const listed = await filesByVitest()
    const onDisk = testFilesOnDisk().sort()
    const projectsOf = new Map<string, string[]>()
    for (const { file, project } of listed)
      projectsOf.set(file, [...(projectsOf.get(file) ?? []), project])

    expect(onDisk.filter((file) => !projectsOf.has(file))).toEqual([])
    expect([...projectsOf].filter(([, projects]) => projects.length > 1)).toEqual([])
    expect([...projectsOf.keys()].sort()).toEqual(onDisk)
    // the split is what the config says: the journeys in e2e, the renderer's files in renderer
    expect(projectsOf.get('tests/e2e/lists-journey.test.ts')).toEqual(['e2e'])
    expect(projectsOf.get('electron/core/start.test.ts')).toEqual(['node'])
    expect(projectsOf.get('electron/core/store/sealing.test.ts')).toEqual(['units'])
    expect(projectsOf.get('renderer/src/views/user/TwoFactorSection.test.ts')).toEqual([
      'renderer-isolated',
    ])

    // a module mock cannot reach a module another file already imported: a file that mocks one
    // runs where each file has its modules of its own
    const mocking = onDisk.filter((file) =>
      /\bvi\.(do)?mock\(/.test(readFileSync(join(root, file), 'utf8')),
    )
    expect(mocking.length).toBeGreaterThan(0)
    expect(mocking.filter((file) => SHARED_MODULES.has(projectsOf.get(file)?.[0] ?? ''))).toEqual(
      [],
    )
  }, 90_000)
})

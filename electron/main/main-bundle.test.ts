// The built main process, built fresh into a temporary folder with electron-vite's own main
// section of electron.vite.config.ts (as `electron-vite build` builds it, without the preload and
// the renderer): the dependencies it bundles (MAIN_BUNDLED_DEPS) are inside it, the others load
// from node_modules.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { resolveConfig } from 'electron-vite'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIN_BUNDLED_DEPS } from './bundled-deps'

const root = resolve(__dirname, '../..')
let outDir: string
let code: string

/** Every package a built file requires (bare names, without the node: modules). */
function requiredPackages(text: string): string[] {
  const names = [...text.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1])
  return [...new Set(names.filter((name) => !name.startsWith('node:') && name !== 'electron'))]
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'scandesk-main-bundle-'))
  const resolved = await resolveConfig(
    { root, build: { outDir }, logLevel: 'error' },
    'build',
    'production',
  )
  const main = resolved.config?.main
  if (!main) throw new Error('electron.vite.config.ts has no main section')
  await build({ ...main, build: { ...main.build, outDir }, logLevel: 'error' })
  code = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(outDir, file), 'utf8'))
    .join('\n')
}, 180_000)

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('the built main process', () => {
  it('bundles zod instead of requiring it', () => {
    expect(MAIN_BUNDLED_DEPS).toEqual(['zod'])
    const required = requiredPackages(code)
    for (const dep of MAIN_BUNDLED_DEPS) {
      expect(required.filter((name) => name === dep || name.startsWith(`${dep}/`))).toEqual([])
    }
    // zod's own code is in the bundle (its error class, by name).
    expect(code).toContain('ZodError')
  })

  it('loads the other production dependencies from node_modules', () => {
    expect(requiredPackages(code)).toEqual(
      expect.arrayContaining(['better-sqlite3', 'axios', 'papaparse']),
    )
  })
})

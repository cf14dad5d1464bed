// The build output the hardening depends on, built fresh into a temporary folder (the project's
// own out/ is left alone: browser mode and the end-to-end tests serve it):
// - the preload, built with electron-vite's own preload section of electron.vite.config.ts
//   (`resolveConfig` of electron-vite, then Vite's `build` of that section alone — the same as
//   `electron-vite build` does for it, without the main process or the renderer; neither needs
//   Electron's binary, which cannot run here);
// - the renderer, built as `vite build --config renderer/vite.config.mts` does.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import vm from 'node:vm'
import { resolveConfig } from 'electron-vite'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNEL_NAMES } from '@contract/channel-names'
import { CONTENT_SECURITY_POLICY } from '../core/browser/static-files'

const root = resolve(__dirname, '../..')
let outDir: string
let preloadDir: string
let rendererDir: string

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    return entry.isDirectory() ? filesBelow(dir, path) : [path]
  })
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'scandesk-build-output-'))
  preloadDir = join(outDir, 'preload')
  rendererDir = join(outDir, 'renderer')
  const nodeEnv = process.env.NODE_ENV
  try {
    // electron-vite puts each section's output under `build.outDir`/<section>.
    const resolved = await resolveConfig(
      { root, build: { outDir }, logLevel: 'error' },
      'build',
      'production',
    )
    const preload = resolved.config?.preload
    if (!preload) throw new Error('electron.vite.config.ts has no preload section')
    await build({ ...preload, logLevel: 'error' })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  await build({
    configFile: join(root, 'renderer', 'vite.config.mts'),
    build: { outDir: rendererDir, emptyOutDir: true },
    logLevel: 'error',
  })
}, 180_000)

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('the built preload', () => {
  it('is one file', () => {
    expect(filesBelow(preloadDir)).toEqual(['index.js'])
  })

  it('names no module but electron, and imports nothing', () => {
    const code = readFileSync(join(preloadDir, 'index.js'), 'utf8')
    const required = [...code.matchAll(/\brequire\s*\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map(
      (m) => m[2],
    )
    expect(required).toEqual(['electron'])
    // Every require is a literal one (no computed module name), and there is no ES import.
    expect(code.match(/\brequire\s*\(/g)).toHaveLength(required.length)
    expect(code).not.toMatch(/^\s*import[\s{*]/m)
    expect(code).not.toMatch(/\bimport\s*\(/)
    expect(code).not.toMatch(/\bimport\.meta\b/)
  })

  it('runs as a CommonJS script that requires electron alone and exposes the bridge only', () => {
    const code = readFileSync(join(preloadDir, 'index.js'), 'utf8')
    const asked: string[] = []
    const exposed: [string, Record<string, unknown>][] = []
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Record<string, unknown>) =>
          void exposed.push([key, api]),
      },
      ipcRenderer: { invoke: async () => '', on() {}, removeListener() {} },
    }
    const require = (name: string) => {
      asked.push(name)
      if (name !== 'electron') throw new Error(`the preload required ${name}`)
      return electron
    }
    // The CommonJS wrapper Node and Electron's sandboxed preload loader put around a script: an
    // ES module (import/export) would not even compile here.
    const wrapper = new vm.Script(`(function (exports, require, module) {\n${code}\n})`, {
      filename: 'preload/index.js',
    })
    const module = { exports: {} }
    ;(wrapper.runInNewContext({}) as (...args: unknown[]) => void)(module.exports, require, module)
    expect(asked).toEqual(['electron'])
    expect(exposed.map(([key]) => key)).toEqual(['scandesk'])
    expect(Object.keys(exposed[0][1]).sort()).toEqual([...CHANNEL_NAMES, 'on'].sort())
    expect(Object.isFrozen(exposed[0][1])).toBe(true)
  })
})

/** A policy's directives: name → its sources, in order; a directive named twice fails. */
function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (!name) continue
    expect(out.has(name), `${name} appears twice`).toBe(false)
    out.set(name, sources)
  }
  return out
}

/** Exactly what the built app needs; anything else falls back to default-src 'none'. */
const EXPECTED = new Map<string, string[]>([
  ['default-src', ["'none'"]],
  ['script-src', ["'self'"]],
  // Element Plus and Vue set style attributes at run time, vue-echarts adds its own small
  // sheet: the reason is in docs/security.md ("Content-Security-Policy").
  ['style-src', ["'self'", "'unsafe-inline'"]],
  ['img-src', ["'self'", 'data:']],
  ['font-src', ["'self'", 'data:']],
  ['connect-src', ["'self'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'none'"]],
])

describe('the built index.html', () => {
  const html = () => readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const metas = () =>
    [...html().matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)].map(
      (m) => m[1],
    )

  it('carries one Content-Security-Policy with every directive exactly as needed', () => {
    expect(metas()).toHaveLength(1)
    expect(directives(metas()[0])).toEqual(EXPECTED)
  })

  it('is served with the same policy as a header, plus frame-ancestors (header only)', () => {
    expect(directives(CONTENT_SECURITY_POLICY)).toEqual(
      new Map([...EXPECTED, ['frame-ancestors', ["'none'"]]]),
    )
  })

  it('puts the policy before anything it governs', () => {
    const text = html()
    const policyAt = text.search(/<meta\s+http-equiv="Content-Security-Policy"/i)
    const firstLoad = text.search(/<(script|link|style|img|iframe|object|base)\b/i)
    expect(policyAt).toBeGreaterThan(0)
    expect(firstLoad).toBeGreaterThan(policyAt)
  })

  it('needs no inline allowance of its own: no inline script, style or event handler', () => {
    const text = html()
    const scripts = [...text.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0])
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toMatch(/\ssrc="\.\/assets\/[^"]+\.js"/)
    expect(text).not.toMatch(/<style\b/i)
    expect(text).not.toMatch(/\sstyle=/i)
    expect(text).not.toMatch(/\son[a-z]+=/i)
    // Everything it loads comes from its own origin ('self'): relative asset paths only.
    for (const [, url] of text.matchAll(/\s(?:src|href)="([^"]*)"/gi))
      expect(url === 'data:,' || url.startsWith('./assets/'), url).toBe(true)
  })
})

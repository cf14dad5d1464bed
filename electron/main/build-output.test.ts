// The build output the hardening depends on, built fresh into a temporary folder (the project's
// own out/ is never written here: browser mode and the end-to-end tests serve it):
// - the preload, built with electron-vite's own preload section of electron.vite.config.ts
//   (`resolveConfig` of electron-vite, then Vite's `build` of that section alone — the same as
//   `electron-vite build` does for it, without the main process or the renderer; neither needs
//   Electron's binary, which cannot run here);
// - the renderer, built as `vite build --config renderer/vite.config.mts` does; its weight is
//   checked here too (the first screen's budget, the largest lazy chunk: issue 22). When the run
//   includes the e2e project, its global setup (tests/e2e/global-setup.ts) has already built the
//   renderer that way, into out/renderer, for this run: that build is read instead of a second one.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import vm from 'node:vm'
import { resolveConfig } from 'electron-vite'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { CHANNEL_NAMES } from '@contract/channel-names'
import { CONTENT_SECURITY_POLICY } from '../core/browser/static-files'

const root = resolve(__dirname, '../..')
let outDir: string
let preloadDir: string
let rendererDir: string
/** electron-vite's renderer section, resolved as `electron-vite build` resolves it. */
let packagedRenderer: { build?: { minify?: unknown } } | undefined

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
    packagedRenderer = resolved.config?.renderer
    const preload = resolved.config?.preload
    if (!preload) throw new Error('electron.vite.config.ts has no preload section')
    await build({ ...preload, logLevel: 'error' })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  const built = inject('builtRenderer')
  if (built) {
    rendererDir = built
    return
  }
  // A production build, as `npm run build:renderer` makes it: under vitest NODE_ENV is "test",
  // which would keep Vue's development code in (and weigh the bundle wrongly).
  try {
    process.env.NODE_ENV = 'production'
    await build({
      configFile: join(root, 'renderer', 'vite.config.mts'),
      mode: 'production',
      build: { outDir: rendererDir, emptyOutDir: true },
      logLevel: 'error',
    })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
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

/** The first screen's JavaScript budget, in bytes (uncompressed), and the cap on any chunk. */
const FIRST_SCREEN_BUDGET = 250 * 1000
const CHUNK_CAP = 500 * 1000

/** The relative imports a built module makes before it runs: `import ... from "./x.js"`. */
function staticImports(code: string): string[] {
  // Minified ES modules: `import{a as b}from"./x.js"`, `import*as c from"./y.js"`, `import"./z.js"`;
  // `import("./w.js")` (a lazy chunk) has a parenthesis and does not match.
  return [...code.matchAll(/\bimport\s*(?:[\w$*{][^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)].map(
    (m) => m[1],
  )
}

describe('the weight of the built renderer', () => {
  const assets = () => join(rendererDir, 'assets')
  /**
   * Every script the page runs or fetches before its first screen: the entry and the module
   * preloads index.html names, and whatever they import statically (Vite preloads those, but
   * the page would load them anyway).
   */
  const firstScreen = () => {
    const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
    const named = [
      ...html.matchAll(/<script\b[^>]*\ssrc="\.\/assets\/([^"]+\.js)"/gi),
      ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*\shref="\.\/assets\/([^"]+\.js)"/gi),
    ].map((m) => m[1])
    const seen = new Set<string>()
    const queue = [...named]
    while (queue.length) {
      const file = queue.shift()!
      if (seen.has(file)) continue
      seen.add(file)
      queue.push(...staticImports(readFileSync(join(assets(), file), 'utf8')))
    }
    return [...seen].map((file) => ({ file, bytes: statSync(join(assets(), file)).size }))
  }
  const listed = (files: { file: string; bytes: number }[]) =>
    files
      .sort((a, b) => b.bytes - a.bytes)
      .map((f) => `  ${f.file}: ${(f.bytes / 1000).toFixed(1)} KB`)
      .join('\n')

  it('is the weight of the packaged app’s renderer too: electron-vite minifies it', () => {
    // electron-vite's renderer section turns minification off unless the config asks for it; the
    // packaged app would then load the whole budget unminified (the theme's chunk: 802 KB, 310 minified).
    expect(packagedRenderer?.build?.minify).toBe(true)
  })

  it('finds the imports of a built module, and not its lazy ones', () => {
    const code =
      'import{n as e}from"./rolldown-runtime-X.js";import*as t from"./a-1.js";import"./b-2.js";' +
      'const c=()=>import("./lazy-3.js");e(()=>import(`./lazy-4.js`))'
    expect(staticImports(code)).toEqual(['rolldown-runtime-X.js', 'a-1.js', 'b-2.js'])
  })

  it(`loads at most ${FIRST_SCREEN_BUDGET / 1000} KB of JavaScript before the first screen`, () => {
    const files = firstScreen()
    const total = files.reduce((sum, f) => sum + f.bytes, 0)
    expect(files.length).toBeGreaterThan(1)
    expect(
      total,
      `the first screen loads ${(total / 1000).toFixed(1)} KB over ${files.length} files ` +
        `(budget ${FIRST_SCREEN_BUDGET / 1000} KB):\n${listed(files)}`,
    ).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET)
  })

  it(`has no chunk over ${CHUNK_CAP / 1000} KB`, () => {
    const chunks = filesBelow(assets())
      .filter((file) => file.endsWith('.js'))
      .map((file) => ({ file, bytes: statSync(join(assets(), file)).size }))
    expect(chunks.length).toBeGreaterThan(10) // the views are lazy chunks
    const over = chunks.filter((c) => c.bytes > CHUNK_CAP)
    expect(over, `chunks over ${CHUNK_CAP / 1000} KB:\n${listed(over)}`).toEqual([])
  })
})

import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import type { FileMatcher } from 'app-builder-lib/out/fileMatcher'
import { getCollectorByPackageManager, PM } from 'app-builder-lib/out/node-module-collector'
import { LinuxTargetHelper } from 'app-builder-lib/out/targets/LinuxTargetHelper'
import { computeFileSets } from 'app-builder-lib/out/util/appFileCopier'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { resolveFunction } from 'app-builder-lib/out/util/resolve'
import type { Configuration } from 'app-builder-lib'
import { DebugLogger, TmpDir } from 'builder-util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import electronViteConfig from '../../electron.vite.config'
import type { UserConfig } from 'electron-vite'
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../core/browser/static-files'
import { builtPaths } from './paths'

const root = resolve(__dirname, '../..')
let config: Configuration
let viteConfig: UserConfig

/** The `files` patterns, whether written as strings or normalised to {filter} sets. */
function filePatterns(): string[] {
  const files = [config.files ?? []].flat() as (string | { filter?: string | string[] })[]
  return files.flatMap((f) => (typeof f === 'string' ? [f] : [f.filter ?? []].flat()))
}

/** True when a `files` pattern of electron-builder covers `path` (relative to the project). */
function covered(patterns: string[], path: string): boolean {
  const included = patterns.filter((p) => !p.startsWith('!'))
  return included.some((p) => (p.endsWith('/**') ? path.startsWith(p.slice(0, -2)) : p === path))
}

beforeAll(async () => {
  viteConfig = await (electronViteConfig as (env: object) => Promise<UserConfig>)({
    command: 'build',
    mode: 'production',
  })
  // Read and validate exactly as `electron-builder --config build/electron-builder.yml` does.
  config = await getConfig(root, join(root, 'build', 'electron-builder.yml'), null)
  await validateConfiguration(config, new DebugLogger(false))
})

describe('the packaging configuration', () => {
  it('names the product and its output folders', () => {
    expect(config.productName).toBe('ScanDesk')
    expect(config.appId).toMatch(/^[a-z0-9]+(\.[a-z0-9-]+)+$/)
    expect(config.directories).toEqual({ buildResources: 'build', output: 'release' })
  })

  it('packs the app into an asar and unpacks only the native modules', () => {
    expect(config.asar).toBe(true)
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['node_modules/better-sqlite3/**', 'node_modules/keytar/**']),
    )
  })

  it('flips the Electron fuses in the afterPack hook, not with electronFuses', async () => {
    // electronFuses sets only the fuses it lists; build/after-pack.cjs sets every one, strictly,
    // and reads them back (electron/main/after-pack.test.ts).
    expect(config.electronFuses).toBeUndefined()
    expect(config.afterPack).toBe('./build/after-pack.cjs')
    // Resolved by electron-builder's own hook loader, relative to the project root.
    const hook = await resolveFunction<unknown>(
      undefined,
      resolve(root, String(config.afterPack)),
      'afterPack',
      root,
    )
    expect(hook).toBe(createRequire(__filename)(join(root, 'build', 'after-pack.cjs')))
    expect(typeof hook).toBe('function')
  })

  it('rebuilds the native modules for Electron', () => {
    expect(config.npmRebuild).toBe(true)
    expect(config.asarUnpack).toContain('**/*.node')
  })

  it('registers the scandesk:// scheme', () => {
    const protocols = [config.protocols ?? []].flat()
    expect(protocols).toEqual([{ name: 'ScanDesk link', schemes: ['scandesk'] }])
  })

  it('declares the scheme once in the Linux desktop entry, which passes the link on', async () => {
    // The desktop entry exactly as the AppImage and deb targets generate it.
    const packager = {
      config,
      platformSpecificBuildOptions: config.linux ?? {},
      appInfo: { productName: 'ScanDesk', sanitizedProductName: 'ScanDesk', description: '' },
      executableName: 'scandesk',
      info: { metadata: { desktopName: 'scandesk.desktop' } },
      fileAssociations: [],
    }
    const helper = new LinuxTargetHelper(packager as never)
    const entry = await helper.computeDesktopEntry(config.linux ?? {})
    const line = (key: string) => entry.split('\n').find((l) => l.startsWith(`${key}=`))
    expect(line('MimeType')).toBe('MimeType=x-scheme-handler/scandesk;')
    expect(line('Exec')).toMatch(/ %U$/)
  })

  it('has the Windows installer register the scheme and remove it on uninstall', () => {
    expect(config.nsis?.include).toBe('build/installer.nsh')
    const script = readFileSync(join(root, 'build', 'installer.nsh'), 'utf8')
    expect(script).toMatch(
      /!macro customInstall[\s\S]*"Software\\Classes\\scandesk" "URL Protocol"/,
    )
    expect(script).toContain(
      'shell\\open\\command" "" \'"$INSTDIR\\${APP_EXECUTABLE_FILENAME}" "%1"\'',
    )
    expect(script).toMatch(
      /!macro customUnInstall[\s\S]*DeleteRegKey HKCU "Software\\Classes\\scandesk"/,
    )
  })

  it('builds AppImage and deb, a hardened dmg and an NSIS installer', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.mac?.target).toEqual(['dmg'])
    expect(config.mac?.hardenedRuntime).toBe(true)
    expect(config.win?.target).toEqual(['nsis'])
  })

  it('ships only the build output and package.json, never sources or browser mode', () => {
    const files = filePatterns()
    expect(files.filter((f) => !f.startsWith('!'))).toEqual(['out/**', 'package.json'])
    for (const source of ['scripts/browser-cli.ts', 'renderer/src/main.ts', 'sandbox/cli.ts'])
      expect(covered(files, source)).toBe(false)
  })

  it('names resource files that exist', () => {
    for (const file of [config.icon, config.mac?.entitlements, config.mac?.entitlementsInherit])
      expect(existsSync(join(root, String(file))), String(file)).toBe(true)
    expect(existsSync(join(root, 'build'))).toBe(true)
  })

  it('grants the macOS hardened runtime exactly the JIT exception Electron needs', () => {
    const plist = readFileSync(join(root, 'build', 'entitlements.mac.plist'), 'utf8')
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])
    expect(keys).toEqual(['com.apple.security.cs.allow-jit'])
    expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/)
  })

  it('includes every file a build produces at the place the app loads it from', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string }
    const outDir = (section: 'main' | 'preload' | 'renderer') =>
      relative(root, String(viteConfig[section]?.build?.outDir))
    const mainFile = join(outDir('main'), 'index.js')
    expect(join(pkg.main)).toBe(mainFile)
    const built = builtPaths(join(root, outDir('main')))
    expect(relative(root, built.preload)).toBe(join(outDir('preload'), 'index.js'))
    expect(relative(root, built.renderer)).toBe(outDir('renderer'))
    const files = filePatterns()
    for (const file of [
      mainFile,
      relative(root, built.preload),
      join(outDir('renderer'), 'index.html'),
    ])
      expect(covered(files, file), file).toBe(true)
  })
})

/** app-builder-lib's own matcher of the `files` of the app (internal, hence no typings). */
const { getMainFileMatchers } = createRequire(__filename)('app-builder-lib/out/fileMatcher') as {
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformSpecificBuildOptions: object,
    platformPackager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): FileMatcher[]
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    return entry.isDirectory() ? filesBelow(dir, path) : [path]
  })
}

describe('an unpacked Linux build', () => {
  // The project as electron-builder sees it (every top-level entry linked in), with a fresh
  // `electron-vite build` in out/: the project's own out/ is left alone (the end-to-end tests and
  // browser mode serve it) and may be stale. The app's files are chosen by app-builder-lib's own
  // matchers and walker, its node_modules by its own npm collector, as `npm run package` does.
  let stage: string
  /** Files of resources/app (the asar), relative to it, node_modules aside. */
  let packed: string[]
  /** Names of the packages electron-builder puts into resources/app/node_modules. */
  let modules: string[]
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    optionalDependencies?: Record<string, string>
    devDependencies: Record<string, string>
  }

  beforeAll(async () => {
    stage = await mkdtemp(join(tmpdir(), 'scandesk-pack-'))
    for (const entry of readdirSync(root))
      if (entry !== 'out') symlinkSync(join(root, entry), join(stage, entry))
    const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
    execFileSync(
      process.execPath,
      [electronVite, 'build', '--outDir', join(stage, 'out'), '--logLevel', 'error'],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    // A source map next to the main script, as `electron-vite build --sourcemap` leaves one.
    writeFileSync(join(stage, 'out', 'main', 'index.js.map'), '{}')

    const info = {
      projectDir: stage,
      buildResourcesDir: join(stage, 'build'),
      config,
      isPrepackedAppAsar: false,
      areNodeModulesHandledExternally: false,
      debugLogger: new DebugLogger(false),
    }
    const platformPackager = { info, config }
    const destination = join(stage, 'release', 'linux-unpacked', 'resources', 'app')
    const matchers = getMainFileMatchers(
      stage,
      destination,
      (pattern) => pattern,
      config.linux ?? {},
      platformPackager,
      join(stage, 'release'),
      false,
    )
    const sets = await computeFileSets(matchers, null, platformPackager as never, false)
    packed = sets
      .flatMap((set) =>
        set.files
          .filter((file) => set.metadata.get(file)?.isFile())
          .map((file) => relative(set.src, file)),
      )
      .sort()

    const temp = new TmpDir('scandesk-packaging-test')
    try {
      const collector = getCollectorByPackageManager(PM.NPM, root, temp)
      const { nodeModules } = await collector.getNodeModules({ packageName: 'scandesk' })
      const names = (list: typeof nodeModules): string[] =>
        list.flatMap((m) => [m.name, ...names(m.dependencies ?? [])])
      modules = [...new Set(names(nodeModules))].sort()
    } finally {
      await temp.cleanup()
    }
  }, 180_000)

  afterAll(async () => {
    if (stage) await rm(stage, { recursive: true, force: true })
  })

  it('packs exactly the build output (no source maps) and package.json', () => {
    const built = filesBelow(join(stage, 'out'))
      .filter((file) => !file.endsWith('.map'))
      .map((file) => `out/${file}`)
    expect(packed).toEqual(['package.json', ...built].sort())
    for (const file of ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'])
      expect(packed).toContain(file)
    expect(packed.filter((file) => file.endsWith('.map'))).toEqual([])
  })

  it('packs no sources, tests, sandbox, docs, build resources or node_modules of the project', () => {
    for (const folder of [
      'electron/',
      'renderer/',
      'sandbox/',
      'tests/',
      'bench/',
      'scripts/',
      'docs/',
      'build/',
      'resources/',
      'node_modules/',
    ])
      expect(
        packed.filter((file) => file.startsWith(folder)),
        folder,
      ).toEqual([])
  })

  it('ships only the production dependencies as node_modules, never the renderer libraries', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      'axios',
      'axios-retry',
      'better-sqlite3',
      'papaparse',
      'zod',
    ])
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual(['keytar'])
    expect(modules).toEqual(
      expect.arrayContaining(['axios', 'axios-retry', 'better-sqlite3', 'papaparse', 'zod']),
    )
    // vue, element-plus, echarts, pinia… are devDependencies: bundled into out/renderer instead.
    for (const library of ['vue', 'element-plus', 'echarts', 'pinia', 'vue-router'])
      expect(pkg.devDependencies, library).toHaveProperty(library)
    expect(modules.filter((name) => name in pkg.devDependencies)).toEqual([])
  })

  it('bundles the renderer libraries into the renderer (no bare imports left)', async () => {
    const scripts = packed.filter((file) => /^out\/renderer\/.*\.js$/.test(file))
    expect(scripts.length).toBeGreaterThan(0)
    for (const file of scripts) {
      const code = await readFile(join(stage, file), 'utf8')
      expect(code, file).not.toMatch(/^import[^;]*?from\s*["'](?!\.{1,2}\/)/m)
      expect(code, file).not.toMatch(/\bimport\(\s*["'](?!\.{1,2}\/)/)
    }
  })

  it('keeps the sandbox service and its API key out of the renderer bundle', async () => {
    const renderer = packed.filter((file) => file.startsWith('out/renderer/'))
    const text = (await Promise.all(renderer.map((f) => readFile(join(stage, f), 'utf8')))).join('')
    // The sandbox's API key, the admin account, its seeded organisations.
    for (const secret of ['sandbox-api-key', 'admin@sandbox.test', 'acme-payments.example'])
      expect(text.includes(secret), secret).toBe(false)
  })

  it('builds index.html with the strict content policy: nothing by default, exactly what the app needs', async () => {
    const html = await readFile(join(stage, 'out/renderer/index.html'), 'utf8')
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(meta).toBe(META_CONTENT_SECURITY_POLICY)
    expect(meta).toMatch(/^default-src 'none'; /)
    expect(meta).toContain("form-action 'none'")
    // The header (app:// and browser mode) is the same policy plus frame-ancestors.
    expect(CONTENT_SECURITY_POLICY).toBe(`${META_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`)
    // Every script the page loads is its own file: no inline script needs an exception.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
  })

  it('keeps the catalog examples (sandbox users, sample secrets) out of the renderer bundle', async () => {
    const renderer = packed.filter((file) => file.startsWith('out/renderer/'))
    const text = (await Promise.all(renderer.map((f) => readFile(join(stage, f), 'utf8')))).join('')
    // renderer/strip-examples.mts drops every defineOperation's `example` from the catalog the
    // renderer imports; the catalog itself (summaries, schemas) is still there.
    expect(text).toContain('Sign in with username and password')
    for (const sample of [
      'sandbox-password',
      'analyst@sandbox.test',
      'correct-horse-battery',
      'rotated-secret-2',
      'otp-example-',
      '5a1e-c0de',
    ])
      expect(text.includes(sample), sample).toBe(false)
  })
})

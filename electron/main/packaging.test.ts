import { existsSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { LinuxTargetHelper } from 'app-builder-lib/out/targets/LinuxTargetHelper'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import type { Configuration } from 'app-builder-lib'
import { DebugLogger } from 'builder-util'
import { beforeAll, describe, expect, it } from 'vitest'
import electronViteConfig from '../../electron.vite.config'
import type { UserConfig } from 'electron-vite'
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

  it('turns off the Electron fuses a packaged app must not have', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    })
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

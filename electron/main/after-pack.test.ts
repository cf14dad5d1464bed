// build/after-pack.cjs (the afterPack hook of build/electron-builder.yml) on stub "Electron
// binaries": files holding the fuse sentinel and a fuse wire, laid out where electron-builder puts
// the packed executable. Electron itself cannot be downloaded here, and the hook only reads and
// writes the wire, so a stub exercises exactly what a real build does.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import type { AfterPackContext } from 'app-builder-lib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

interface AfterPackHook {
  (context: AfterPackContext): Promise<void>
  FUSES: Readonly<Record<string, boolean>>
  fuseConfig(
    fuses: { FuseV1Options: object; FuseVersion: object },
    context: AfterPackContext,
  ): Record<string, unknown>
  packedExecutable(context: AfterPackContext): string
  verifyWire(wire: Record<string, unknown>, options: object): void
}

const root = resolve(__dirname, '../..')
// Loaded the way electron-builder loads it: plain Node require, no transform.
const hook = createRequire(__filename)(join(root, 'build', 'after-pack.cjs')) as AfterPackHook

/** Where @electron/fuses looks: the sentinel, then wire version 1 and the wire length. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const ENABLE = 0x31
const DISABLE = 0x30

/** Electron's own value of each fuse (electron/build/fuses/fuses.json5): '1' on, '0' off. */
const ELECTRON_DEFAULTS: Record<string, '0' | '1'> = {
  RunAsNode: '1',
  EnableCookieEncryption: '0',
  EnableNodeOptionsEnvironmentVariable: '1',
  EnableNodeCliInspectArguments: '1',
  EnableEmbeddedAsarIntegrityValidation: '0',
  OnlyLoadAppFromAsar: '0',
  LoadBrowserProcessSpecificV8Snapshot: '0',
  GrantFileProtocolExtraPrivileges: '1',
  WasmTrapHandlers: '1',
}

/** What ScanDesk ships (docs/decisions.md, "Packaging"). */
const SHIPPED: Record<string, boolean> = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  LoadBrowserProcessSpecificV8Snapshot: false,
  GrantFileProtocolExtraPrivileges: false,
  WasmTrapHandlers: true,
}

/** Fuse names the installed @electron/fuses knows, in wire order. */
const known = Object.keys(FuseV1Options)
  .filter((key) => Number.isNaN(Number(key)))
  .sort(
    (a, b) =>
      FuseV1Options[a as keyof typeof FuseV1Options] -
      FuseV1Options[b as keyof typeof FuseV1Options],
  )
/** Electron 45's wire: the eight classic fuses and WasmTrapHandlers. */
const ELECTRON_45_FUSES = Object.keys(ELECTRON_DEFAULTS)

/** A stub binary: some bytes, the sentinel, the wire of `names` at Electron's defaults, more bytes. */
function stubBinary(names: readonly string[]): Buffer {
  const wire = names.map((name) => ELECTRON_DEFAULTS[name] ?? '1').join('')
  return Buffer.concat([
    Buffer.from('\x7fELF stub executable; '),
    Buffer.from(SENTINEL),
    Buffer.from([1, names.length]),
    Buffer.from(wire),
    Buffer.from(' rest of the binary'),
  ])
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scandesk-after-pack-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** An electron-builder pack context for `platform`, as far as the hook reads it. */
function context(platform: string, arch = 1): AfterPackContext {
  return {
    appOutDir: join(dir, `${platform}-unpacked`),
    outDir: dir,
    electronPlatformName: platform,
    arch,
    targets: [],
    // LinuxPackager: executableName is the package name in lower case; appInfo as AppInfo.
    packager: { appInfo: { productFilename: 'ScanDesk' }, executableName: 'scandesk' },
  } as unknown as AfterPackContext
}

async function writeStub(file: string, names: readonly string[]): Promise<Buffer> {
  const bytes = stubBinary(names)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, bytes)
  return bytes
}

/** The wire read back as { fuse name: '0' | '1' }. */
async function readBack(file: string): Promise<Record<string, string>> {
  const wire = (await getCurrentFuseWire(file)) as unknown as Record<string, number | string>
  expect(wire.version).toBe('1')
  return Object.fromEntries(
    Object.entries(wire)
      .filter(([key]) => key !== 'version')
      .map(([key, byte]) => [
        FuseV1Options[Number(key)] ?? `#${key}`,
        String.fromCharCode(Number(byte)),
      ]),
  )
}

const expected = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, SHIPPED[name] ? '1' : '0']))

describe('the afterPack hook', () => {
  it('has a value for every fuse the installed @electron/fuses knows, and ours are these', () => {
    for (const name of known) expect(hook.FUSES, name).toHaveProperty(name)
    expect(hook.FUSES).toEqual(SHIPPED)
  })

  it('flips every fuse of the packed Linux executable and reads the same values back', async () => {
    const ctx = context('linux')
    const file = join(ctx.appOutDir, 'scandesk')
    const before = await writeStub(file, known)
    expect(hook.packedExecutable(ctx)).toBe(file)
    await hook(ctx)
    expect(await readBack(file)).toEqual(expected(known))
    const after = await readFile(file)
    // Only the wire changed: same length, same bytes up to the wire and after it.
    expect(after.length).toBe(before.length)
    const wireAt = before.indexOf(SENTINEL) + SENTINEL.length + 2
    expect(after.subarray(0, wireAt)).toEqual(before.subarray(0, wireAt))
    expect(after.subarray(wireAt + known.length)).toEqual(before.subarray(wireAt + known.length))
  })

  it('finds the Windows executable and the macOS framework where electron-builder puts them', async () => {
    const win = context('win32')
    const exe = join(win.appOutDir, 'ScanDesk.exe')
    await writeStub(exe, known)
    expect(hook.packedExecutable(win)).toBe(exe)
    await hook(win)
    expect(await readBack(exe)).toEqual(expected(known))

    const mac = context('darwin')
    const app = join(mac.appOutDir, 'ScanDesk.app', 'Contents')
    await mkdir(join(app, 'MacOS'), { recursive: true })
    await writeFile(join(app, 'MacOS', 'ScanDesk'), 'stub launcher')
    const framework = join(app, 'Frameworks', 'Electron Framework.framework', 'Electron Framework')
    await writeStub(framework, known)
    expect(hook.packedExecutable(mac)).toBe(join(app, 'MacOS', 'ScanDesk'))
    await hook(mac)
    // Read back through the launcher path, which @electron/fuses maps to the framework (the
    // launcher stub itself has no wire).
    expect(await readBack(join(app, 'MacOS', 'ScanDesk'))).toEqual(expected(known))
    expect((await readFile(framework)).includes(Buffer.from(SENTINEL))).toBe(true)
  })

  it('resets the ad-hoc signature on Apple Silicon macOS builds only', async () => {
    const fuses = await import('@electron/fuses')
    const reset = (platform: string, arch: number) =>
      hook.fuseConfig(fuses, context(platform, arch)).resetAdHocDarwinSignature
    // electron-builder's Arch: x64 1, arm64 3, universal 4.
    expect(reset('darwin', 3)).toBe(true)
    expect(reset('darwin', 4)).toBe(true)
    expect(reset('darwin', 1)).toBe(false)
    expect(reset('linux', 3)).toBe(false)
    expect(hook.fuseConfig(fuses, context('linux'))).toMatchObject({
      version: '1',
      strictlyRequireAllFuses: true,
    })
  })

  it('fails, changing nothing, on a wire with a fuse nobody has decided on', async () => {
    const ctx = context('linux')
    const file = join(ctx.appOutDir, 'scandesk')
    const before = await writeStub(file, [...known, 'FutureFuse'])
    await expect(hook(ctx)).rejects.toThrow(/strictlyRequireAllFuses/)
    expect(await readFile(file)).toEqual(before)
  })

  it("flips Electron 45's nine fuses (the pinned @electron/fuses knows WasmTrapHandlers)", async () => {
    // Electron 45 has 9 fuses; @electron/fuses 1.8 (what app-builder-lib pulls in) knows 8 and
    // would refuse the real binary, so package.json pins 2.1.3.
    expect(known.length).toBeGreaterThanOrEqual(ELECTRON_45_FUSES.length)
    const ctx = context('linux')
    const file = join(ctx.appOutDir, 'scandesk')
    await writeStub(file, ELECTRON_45_FUSES)
    await hook(ctx)
    expect(await readBack(file)).toEqual(expected(ELECTRON_45_FUSES))
  })

  it('fails when the executable is missing or holds no fuse wire', async () => {
    const ctx = context('linux')
    await expect(hook(ctx)).rejects.toThrow(/no packed executable at .*scandesk/)
    await mkdir(ctx.appOutDir, { recursive: true })
    await writeFile(join(ctx.appOutDir, 'scandesk'), 'not electron')
    await expect(hook(ctx)).rejects.toThrow(/Could not find sentinel/)
  })

  it('rejects a wire read back with any fuse not as set', () => {
    const wire = (states: Record<string, boolean>) => ({
      version: '1',
      ...Object.fromEntries(known.map((name, i) => [i, states[name] ? ENABLE : DISABLE] as const)),
    })
    expect(() => hook.verifyWire(wire(SHIPPED), FuseV1Options)).not.toThrow()
    expect(() => hook.verifyWire(wire({ ...SHIPPED, RunAsNode: true }), FuseV1Options)).toThrow(
      'RunAsNode is 1, expected 0',
    )
    expect(() =>
      hook.verifyWire({ ...wire(SHIPPED), [known.length]: ENABLE }, FuseV1Options),
    ).toThrow(`fuse ${known.length} (unknown)`)
    expect(() => hook.verifyWire({ ...wire(SHIPPED), version: '2' }, FuseV1Options)).toThrow(
      'version 2',
    )
  })
})

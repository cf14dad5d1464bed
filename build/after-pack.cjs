// electron-builder `afterPack` hook (build/electron-builder.yml): flips every Electron fuse of the
// packed executable to the value below, then reads the fuse wire back and fails the build if any
// fuse differs. Plain CommonJS so electron-builder can require it without a TypeScript step.
// Checked by electron/main/after-pack.test.ts; the choices are explained in docs/decisions.md
// ("Packaging").
'use strict'

const { existsSync } = require('node:fs')
const path = require('node:path')

/**
 * The value of every fuse, by its @electron/fuses name (FuseV1Options). Every fuse the installed
 * @electron/fuses knows must be listed here: a fuse that is not makes the hook fail, so a new fuse
 * (an Electron or @electron/fuses upgrade) is decided on, never inherited by accident.
 */
const FUSES = Object.freeze({
  // No ELECTRON_RUN_AS_NODE: the packed executable cannot be used as a plain Node.js interpreter
  // that runs any script. ScanDesk never forks itself as Node (its hasher uses worker_threads).
  RunAsNode: false,
  // Chromium's cookie store on disk is encrypted with the OS key (Keychain, DPAPI, libsecret), as
  // in Chrome. One-way (enabling it later would corrupt an existing store), so on from the start.
  EnableCookieEncryption: true,
  // NODE_OPTIONS (and NODE_EXTRA_CA_CERTS) from the environment are ignored, so nobody can inject
  // `--require evil.js` into the main process through the environment.
  EnableNodeOptionsEnvironmentVariable: false,
  // --inspect, --inspect-brk and SIGUSR1 open no debugger on the main process of a packed build.
  EnableNodeCliInspectArguments: false,
  // app.asar is checked against the hash electron-builder records (Info.plist on macOS, a
  // resource of the .exe on Windows) before it is read; Linux does not check (no-op there).
  EnableEmbeddedAsarIntegrityValidation: true,
  // The app loads from app.asar only, never from a resources/app folder placed next to it, so
  // with the integrity check no unchecked code can be loaded.
  OnlyLoadAppFromAsar: true,
  // Electron's default: the browser process uses the common V8 snapshot. We ship no
  // browser_v8_context_snapshot.bin, and turning this on without one would stop the app starting.
  LoadBrowserProcessSpecificV8Snapshot: false,
  // file:// pages get no more than a browser gives them: the renderer is served on app://scandesk
  // (electron/main/protocol.ts), never from file://.
  GrantFileProtocolExtraPrivileges: false,
  // Electron's default: V8 traps out-of-bounds WebAssembly memory accesses with signal handlers
  // instead of compiling a bounds check into every access. Wire index 8, present in Electron 45's
  // wire; only @electron/fuses 2.1 and later know it.
  WasmTrapHandlers: true,
})

/** Fuse wire bytes (the ASCII digits '0' and '1', as in Electron's fuses.json5). */
const DISABLE = 0x30
const ENABLE = 0x31

/** Names of the fuses the installed @electron/fuses knows, in wire order. */
function knownFuses(FuseV1Options) {
  return Object.keys(FuseV1Options)
    .filter((key) => Number.isNaN(Number(key)))
    .sort((a, b) => FuseV1Options[a] - FuseV1Options[b])
}

/** The packed executable electron-builder wrote to `appOutDir` (it names it as below). */
function packedExecutable(context) {
  const { appOutDir, electronPlatformName, packager } = context
  const productFilename = packager.appInfo.productFilename
  switch (electronPlatformName) {
    case 'linux':
      // LinuxPackager renames the binary to its executableName (package name, lower case).
      return path.join(appOutDir, packager.executableName)
    case 'win32':
      return path.join(appOutDir, `${productFilename}.exe`)
    case 'darwin':
    case 'mas':
      // @electron/fuses flips the fuses in the Electron Framework next to this executable.
      return path.join(appOutDir, `${productFilename}.app`, 'Contents', 'MacOS', productFilename)
    default:
      throw new Error(`after-pack: unknown platform ${electronPlatformName}`)
  }
}

/** The fuse config for flipFuses: every known fuse set, strictly, as FUSES says. */
function fuseConfig(fuses, context) {
  const names = knownFuses(fuses.FuseV1Options)
  const undecided = names.filter((name) => !Object.prototype.hasOwnProperty.call(FUSES, name))
  if (undecided.length > 0)
    throw new Error(
      `after-pack: @electron/fuses knows fuse(s) ${undecided.join(', ')} that build/after-pack.cjs ` +
        'has no value for; decide each one in FUSES (and docs/decisions.md)',
    )
  // electron-builder 26 numbers Arch as ia32 0, x64 1, armv7l 2, arm64 3, universal 4.
  const arm64 = context.arch === 3 || context.arch === 4
  const config = {
    version: fuses.FuseVersion.V1,
    strictlyRequireAllFuses: true,
    // Flipping a fuse breaks the ad-hoc signature Apple Silicon requires; re-sign ad hoc (a real
    // identity, when configured, signs again right after this hook).
    resetAdHocDarwinSignature:
      (context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') &&
      arm64,
  }
  for (const name of names) config[fuses.FuseV1Options[name]] = FUSES[name]
  return config
}

/** Throws unless every fuse of the wire read back from the binary has the value of FUSES. */
function verifyWire(wire, FuseV1Options) {
  if (String(wire.version) !== '1')
    throw new Error(`after-pack: fuse wire version ${wire.version} read back, expected 1`)
  const wrong = []
  for (const key of Object.keys(wire)) {
    if (key === 'version') continue
    const name = FuseV1Options[Number(key)]
    const want = name === undefined ? undefined : FUSES[name]
    const byte = wire[key]
    if (want === undefined) wrong.push(`fuse ${key} (unknown) is ${byte}`)
    else if (byte !== (want ? ENABLE : DISABLE))
      wrong.push(`${name} is ${String.fromCharCode(byte)}, expected ${want ? 1 : 0}`)
  }
  if (wrong.length > 0) throw new Error(`after-pack: fuses read back wrong: ${wrong.join('; ')}`)
}

/** Loads @electron/fuses (CommonJS up to 1.x, ES module from 2.0). */
async function loadFuses() {
  const loaded = await import('@electron/fuses')
  return 'flipFuses' in loaded ? loaded : loaded.default
}

/** The hook: flip, read back, compare. */
async function afterPack(context) {
  const fuses = await loadFuses()
  const executable = packedExecutable(context)
  if (!existsSync(executable)) throw new Error(`after-pack: no packed executable at ${executable}`)
  await fuses.flipFuses(executable, fuseConfig(fuses, context))
  verifyWire(await fuses.getCurrentFuseWire(executable), fuses.FuseV1Options)
}

module.exports = afterPack
module.exports.default = afterPack
module.exports.afterPack = afterPack
module.exports.FUSES = FUSES
module.exports.fuseConfig = fuseConfig
module.exports.packedExecutable = packedExecutable
module.exports.verifyWire = verifyWire

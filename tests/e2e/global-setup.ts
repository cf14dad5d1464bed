// Builds the renderer once for the run, as `npm run build:renderer` does: browser mode serves
// out/renderer to the journeys, and the build-output test (electron/main/build-output.test.ts,
// node project) reads this same build instead of making one of its own. Vitest runs the global
// setups of every project in the run before any test, so the build is complete by then.
// Then bundles browser mode (scripts/browser-cli.ts and what it imports; packages stay outside)
// into out/e2e/browser-cli.mjs, which every journey's browser mode starts from
// (tests/e2e/harness.ts, useBrowserModeBundle).
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The renderer built for this run (absolute path), when the e2e project is in the run. */
    builtRenderer?: string
    /** Browser mode bundled for this run (absolute path), when the e2e project is in the run. */
    browserModeBundle?: string
  }
}

export default function setup(project: TestProject): void {
  const root = project.vitest.config.root
  // Vite's own command line, without npx in front of it.
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'renderer/vite.config.mts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  )
  project.vitest.provide('builtRenderer', join(root, 'out', 'renderer'))
  const bundle = join(root, 'out', 'e2e', 'browser-cli.mjs')
  buildSync({
    absWorkingDir: root,
    entryPoints: ['scripts/browser-cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // node_modules are loaded as they are: native modules, and the sources are what needed tsx
    packages: 'external',
    outfile: bundle,
    logLevel: 'warning',
  })
  project.vitest.provide('browserModeBundle', bundle)
}

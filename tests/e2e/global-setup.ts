// Builds the renderer once for the run, as `npm run build:renderer` does: browser mode serves
// out/renderer to the journeys, and the build-output test (electron/main/build-output.test.ts,
// node project) reads this same build instead of making one of its own. Vitest runs the global
// setups of every project in the run before any test, so the build is complete by then.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The renderer built for this run (absolute path), when the e2e project is in the run. */
    builtRenderer?: string
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
}

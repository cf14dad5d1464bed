// Builds the renderer once before the end-to-end tests (browser mode serves out/renderer).
import { execFileSync } from 'node:child_process'

export default function setup(): void {
  execFileSync(
    'npx',
    ['vite', 'build', '--config', 'renderer/vite.config.mts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
}

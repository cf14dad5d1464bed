// `npm run browser -- [--demo] [--port N] [--data-dir DIR] [--no-open]`: runs browser mode
// (scripts/browser-cli.ts) under tsx, forwarding arguments, signals and the exit code.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli')

const child = spawn(
  process.execPath,
  [tsxCli, join(root, 'scripts', 'browser-cli.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal)
  })
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

// `npm run sandbox -- [flags]`: runs the sandbox on 127.0.0.1 until SIGINT/SIGTERM.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isRelease, RELEASES } from '@contract/releases'
import type { Faults } from './engine/faults'
import { startSandbox, type SandboxOptions } from './server'

const USAGE = `usage: npm run sandbox -- [options]
  --port N                 port on 127.0.0.1 (default 4010; 0 = any free port)
  --release R              ${RELEASES.join(' | ')} (default latest)
  --data FILE              load state from FILE if it exists, save every change to it
  --seed N                 data seed (integer)
  --seed-scale S           default | large (large adds ~100,000 vulnerabilities, 20,000
                           targets and 5,000 scans to the demo data)
  --api-key K              the x-api-key every request must carry (default sandbox-api-key)
  --test-mode              mount the /__control/ endpoints (faults, reset, clock, log)
  --fixed-otp CODE         every one-time code equals CODE
  --latency MS             delay every answer
  --error-rate 0..1        answer 500 to this fraction of requests
  --rate-limit-every N     answer 429 to every Nth request
  --drop-mid-body          cut answers after half their body
  --corrupt-downloads      flip bytes of file answers
  --slow-drip MS           file answers trickle 1 KiB per MS
  --unauthorized-after N   refuse every token after N authenticated requests
  --session-ttl MS         lifetime of sign-in sessions (default 8 h)
  --scan-duration MS       sandbox-clock time a scan run takes (default 120000)
  --action-delay MS        time scanner verify and port list sync take (default 400)
  --quiet                  do not log each request
  --help`

/** Parses the command line into sandbox options; throws an Error with a clear message. */
export function parseCli(argv: string[]): SandboxOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      release: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string' },
      'seed-scale': { type: 'string' },
      'api-key': { type: 'string' },
      'test-mode': { type: 'boolean' },
      'fixed-otp': { type: 'string' },
      latency: { type: 'string' },
      'error-rate': { type: 'string' },
      'rate-limit-every': { type: 'string' },
      'drop-mid-body': { type: 'boolean' },
      'corrupt-downloads': { type: 'boolean' },
      'slow-drip': { type: 'string' },
      'unauthorized-after': { type: 'string' },
      'session-ttl': { type: 'string' },
      'scan-duration': { type: 'string' },
      'action-delay': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  const int = (flag: string, raw: string | undefined, min: number, max: number) => {
    if (raw === undefined) return undefined
    const n = Number(raw)
    if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max) {
      throw new Error(`--${flag} must be an integer from ${min} to ${max}, got "${raw}"`)
    }
    return n
  }
  if (values.release !== undefined && !isRelease(values.release)) {
    throw new Error(`--release must be one of ${RELEASES.join(', ')}, got "${values.release}"`)
  }
  let errorRate: number | undefined
  if (values['error-rate'] !== undefined) {
    errorRate = Number(values['error-rate'])
    if (!Number.isFinite(errorRate) || errorRate < 0 || errorRate > 1) {
      throw new Error(`--error-rate must be a number from 0 to 1, got "${values['error-rate']}"`)
    }
  }
  const scale = values['seed-scale']
  if (scale !== undefined && scale !== 'default' && scale !== 'large') {
    throw new Error(`--seed-scale must be default or large, got "${scale}"`)
  }
  if (values['api-key'] !== undefined && values['api-key'].trim() === '') {
    throw new Error('--api-key must not be empty')
  }
  const faults: Partial<Faults> = {}
  const latency = int('latency', values.latency, 0, 600_000)
  if (latency !== undefined) faults.latencyMs = latency
  if (errorRate !== undefined) faults.errorRate = errorRate
  const every = int('rate-limit-every', values['rate-limit-every'], 0, 1_000_000_000)
  if (every !== undefined) faults.rateLimitEvery = every
  const after = int('unauthorized-after', values['unauthorized-after'], 0, 1_000_000_000)
  if (after !== undefined) faults.unauthorizedAfter = after
  const drip = int('slow-drip', values['slow-drip'], 0, 60_000)
  if (drip !== undefined) faults.slowDripMs = drip
  if (values['drop-mid-body']) faults.dropMidBody = true
  if (values['corrupt-downloads']) faults.corruptDownloads = true
  return {
    port: int('port', values.port, 0, 65535) ?? 4010,
    release: values.release as SandboxOptions['release'],
    dataFile: values.data ? resolve(values.data) : undefined,
    seed: int('seed', values.seed, 0, 2 ** 32 - 1),
    seedScale: scale,
    apiKey: values['api-key'],
    testMode: values['test-mode'] ?? false,
    fixedOtp: values['fixed-otp'],
    sessionTtlMs: int('session-ttl', values['session-ttl'], 1000, 2 ** 31),
    scanDurationMs: int('scan-duration', values['scan-duration'], 1000, 24 * 3_600_000),
    actionDelayMs: int('action-delay', values['action-delay'], 0, 60_000),
    faults,
    logRequests: !values.quiet,
  }
}

async function main(): Promise<void> {
  let options: SandboxOptions | 'help'
  try {
    options = parseCli(process.argv.slice(2))
  } catch (err) {
    process.stderr.write(`sandbox: ${(err as Error).message}\n\n${USAGE}\n`)
    process.exit(2)
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const sandbox = await startSandbox(options)
  const lines = [
    `ScanDesk sandbox (release ${sandbox.release}) listening on ${sandbox.baseUrl}`,
    `API key (x-api-key): ${sandbox.apiKey}`,
    'Users:',
    ...sandbox.users.map(
      (u) =>
        `  ${u.username} / ${u.password}  (${u.role}, ${
          u.twoFactor === 'none'
            ? 'no 2FA'
            : `2FA by ${u.twoFactor === 'app' ? 'authenticator app' : 'SMS'}: one-time codes appear in this log`
        })`,
    ),
    options.testMode ? `Control endpoints: ${sandbox.baseUrl}/__control/` : '',
    options.dataFile
      ? `State file: ${options.dataFile}`
      : 'State: in memory (use --data FILE to keep it)',
    'Press Ctrl+C to stop.',
  ]
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stdout.write(`sandbox: ${signal}, stopping\n`)
    sandbox.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`sandbox: ${(err as Error).message}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

if (process.argv[1] && /cli\.[cm]?[tj]s$/.test(process.argv[1])) {
  main().catch((err: Error) => {
    process.stderr.write(`sandbox: ${err.message}\n`)
    process.exit(1)
  })
}

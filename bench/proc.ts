// Bench helpers: run a program without a shell and time it (wall and CPU); read a process's peak
// memory.
import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** What one finished program run gave back. */
export interface RunResult {
  ms: number
  /**
   * CPU time (user + system, all its threads) of the program, from this process's count of its
   * finished children (Linux, 10 ms steps); null where that is not readable. Right only while
   * no other child of this process ends at the same time: run programs one after another.
   */
  cpuMs: number | null
  stdout: string
}

/** Linux's clock ticks per second in /proc (USER_HZ, 100 on every Linux ScanDesk runs on). */
const TICKS_PER_SECOND = 100

/**
 * CPU time in ms of this process's children that ended and were waited for (cutime + cstime of
 * /proc/self/stat), or null off Linux.
 */
export function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3])
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null
  } catch {
    return null
  }
}

/**
 * Runs `command args` (no shell), resolving with its wall time, CPU time and stdout; rejects on
 * failure.
 */
export function runTimed(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuMs()
    const start = process.hrtime.bigint()
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd,
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.once('error', reject)
    child.once('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      const cpuAfter = childrenCpuMs()
      const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore
      if (code === 0) return resolve({ ms, cpuMs, stdout: Buffer.concat(out).toString('utf8') })
      const why = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-5).join('\n')
      reject(new Error(`${command} failed (${signal ?? `exit ${code}`}): ${why}`))
    })
  })
}

/** The last hexadecimal SHA-256 in a tool's output (openssl dgst, sha256sum). */
export function digestIn(output: string): string {
  const all = output.match(/\b[0-9a-f]{64}\b/g)
  if (!all) throw new Error(`no SHA-256 in: ${output.slice(0, 200)}`)
  return all[all.length - 1]
}

/** Peak resident memory of this process in bytes (VmHWM on Linux, else maxRSS). */
export function peakRssBytes(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (m) return Number(m[1]) * 1024
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return process.resourceUsage().maxRSS * 1024
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/**
 * Smoke run (`npm run bench -- --smoke`, what CI runs): a few rounds on a few MiB, so a change
 * that breaks a benchmark is caught; its numbers are printed, not judged.
 */
export const SMOKE = process.argv.includes('--smoke') || process.env.SCANDESK_BENCH_SMOKE === '1'

/** Rounds of a benchmark: `full` normally, 2 in a smoke run. */
export function rounds(full: number): number {
  return SMOKE ? 2 : full
}

/** The benchmark file size in bytes: SCANDESK_BENCH_GIB (default 1; 4 MiB in a smoke run) GiB. */
export function benchBytes(): number {
  const raw = process.env.SCANDESK_BENCH_GIB
  const gib = raw === undefined || raw === '' ? (SMOKE ? 4 / 1024 : 1) : Number(raw)
  if (!Number.isFinite(gib) || gib <= 0)
    throw new Error('SCANDESK_BENCH_GIB must be a positive number')
  return Math.round(gib * 1024 * 1024 * 1024)
}

/** A size in GiB for labels ("1 GiB", "0.25 GiB"). */
export function gibLabel(bytes: number): string {
  return `${Number((bytes / 1024 ** 3).toFixed(3))} GiB`
}

/** Event loop delay of an idle Node process, measured while something else runs. */
export interface LoopProbe {
  /** Stops the probe; resolves with its p99 and max delay in ms (sampling interval included). */
  stop(): Promise<{ p99Ms: number; maxMs: number }>
}

const PROBE_SOURCE = `
const { monitorEventLoopDelay } = require('node:perf_hooks')
const h = monitorEventLoopDelay({ resolution: 1 })
h.enable()
process.stdin.resume()
process.stdin.on('end', () => {
  h.disable()
  process.stdout.write(JSON.stringify({ p99Ms: h.percentile(99) / 1e6, maxMs: h.max / 1e6 }))
})
`

/** Starts an idle Node process sampling its own event loop every 1 ms (the machine's noise). */
export function startLoopProbe(): LoopProbe {
  const child = spawn(process.execPath, ['-e', PROBE_SOURCE], { stdio: ['pipe', 'pipe', 'ignore'] })
  const out: Buffer[] = []
  child.stdout.on('data', (b: Buffer) => out.push(b))
  const done = new Promise<{ p99Ms: number; maxMs: number }>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', () => {
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as { p99Ms: number; maxMs: number })
      } catch {
        reject(new Error('the event loop probe gave no answer'))
      }
    })
  })
  return {
    stop() {
      child.stdin.end()
      return done
    },
  }
}

/**
 * Writes a scratch file of `bytes` (none for 0) into `folder` and deletes it, so that the next file
 * written there is put in memory the kernel has only just freed. These machines are VMs whose
 * balloon reports free memory back to the host a second or two after it is freed; a page handed
 * back faults in again on its next use, charged as system time to whoever writes into it (1 GiB of
 * page cache measured here: ~0.35 s of system time on just-freed memory, ~3.5 s after a pause).
 * Without this, a side's CPU and time would depend on how long ago the previous file was deleted
 * (ScanDesk's child process starts for half a second before its download, curl at once), not on its
 * own work; each side is measured right after the same scratch write instead, as on a machine whose
 * memory stays its own.
 */
export function writeScratch(folder: string, bytes: number): void {
  if (bytes <= 0) return
  const path = join(folder, '.scratch')
  const chunk = Buffer.alloc(2 * 1024 * 1024)
  const fd = openSync(path, 'w')
  try {
    for (let pos = 0; pos < bytes; pos += chunk.length)
      writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - pos), pos)
  } finally {
    closeSync(fd)
    rmSync(path, { force: true })
  }
}

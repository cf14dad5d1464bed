// Benchmark: re-verifying a file on disk — ScanDesk's hashFile against `openssl dgst -sha256`,
// on the same file (in os.tmpdir(), deleted afterwards), in alternating rounds of one run.
// Size: SCANDESK_BENCH_GIB (default 1).
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashFile } from '../electron/core/files/hash'
import { benchBytes, digestIn, gibLabel, rounds, runTimed } from './proc'
import { median, ratioLine } from './stats'

const ROUNDS = rounds(7)
const BLOCK = 1024 * 1024

/** Writes `size` bytes of varied content (1 MiB blocks) and returns their SHA-256. */
async function writeFile(path: string, size: number): Promise<string> {
  const seed = Buffer.alloc(BLOCK)
  for (let i = 0; i < BLOCK; i += 32)
    createHash('sha256').update(`verify-bench:${i}`).digest().copy(seed, i)
  const hash = createHash('sha256')
  const handle = await open(path, 'w')
  try {
    for (let offset = 0, n = 0; offset < size; offset += BLOCK, n++) {
      const block = seed.subarray(0, Math.min(BLOCK, size - offset))
      block.writeUInt32BE(n, 0)
      hash.update(block)
      await handle.write(block)
    }
  } finally {
    await handle.close()
  }
  return hash.digest('hex')
}

/** Runs the re-verify benchmark and returns its printed lines. */
export async function benchVerify(): Promise<string[]> {
  const size = benchBytes()
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-bench-verify-'))
  const file = join(dir, 'report.pdf')
  try {
    const expected = await writeFile(file, size)
    const ours = async () => {
      const start = process.hrtime.bigint()
      const result = await hashFile(file)
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (result.sha256 !== expected || result.size !== size)
        throw new Error(`verify bench: hashFile gave ${result.sha256} (${result.size} bytes)`)
      return ms
    }
    const openssl = async () => {
      const run = await runTimed('openssl', ['dgst', '-sha256', file])
      if (digestIn(run.stdout) !== expected) throw new Error('verify bench: openssl disagrees')
      return run.ms
    }
    await ours()
    await openssl()
    const a: number[] = []
    const b: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2) {
        b.push(await openssl())
        a.push(await ours())
      } else {
        a.push(await ours())
        b.push(await openssl())
      }
    }
    return [
      ratioLine(
        `re-verify ${gibLabel(size)} on disk (hashFile) vs openssl dgst -sha256, ${ROUNDS} alternating rounds`,
        median(a),
        median(b),
        1.25,
      ),
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

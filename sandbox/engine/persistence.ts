import { existsSync, readFileSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { SandboxState } from '../types'
import type { SessionsSnapshot } from './sessions'

/** Format tag of a sandbox data file. */
export const DATA_FORMAT = 'scandesk-sandbox-state'

const row = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  internal: z.record(z.string(), z.unknown()).optional(),
})

const dataFile = z.object({
  format: z.literal(DATA_FORMAT),
  version: z.literal(1),
  release: z.string().optional(),
  state: z.object({
    collections: z.record(z.string(), z.record(z.string(), row)),
    counters: z.record(z.string(), z.number().int().min(0)),
  }),
  sessions: z.object({
    sessions: z.record(
      z.string(),
      z.object({
        userId: z.string(),
        impersonatorId: z.string().optional(),
        expiresAt: z.number(),
      }),
    ),
    accessTokens: z.record(z.string(), z.string()),
  }),
})

/** What a data file holds: the state and the sessions (token hashes only). */
export interface PersistedData {
  state: SandboxState
  sessions: SessionsSnapshot
}

/** Thrown when a data file exists but is not a valid sandbox state. */
export class DataFileError extends Error {
  constructor(path: string, reason: string) {
    super(
      `sandbox data file ${path} is not a valid sandbox state (${reason}); it was left untouched`,
    )
    this.name = 'DataFileError'
  }
}

/** Reads a data file at start: null when absent; throws DataFileError when corrupt. */
export function loadDataFile(path: string): PersistedData | null {
  if (!existsSync(path)) return null
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new DataFileError(path, `not JSON: ${(err as Error).message}`)
  }
  const parsed = dataFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new DataFileError(path, `${issue.path.join('.') || 'root'}: ${issue.message}`)
  }
  for (const [name, rows] of Object.entries(parsed.data.state.collections)) {
    for (const [id, r] of Object.entries(rows)) {
      if (r.id !== id) throw new DataFileError(path, `row ${name}.${id} has id ${r.id}`)
    }
  }
  return { state: parsed.data.state as SandboxState, sessions: parsed.data.sessions }
}

/** Writes `text` atomically: temp file in the same folder, fsync, rename. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  const fh = await open(tmp, 'w', 0o600)
  try {
    await fh.writeFile(text, 'utf8')
    await fh.sync()
  } finally {
    await fh.close()
  }
  try {
    await rename(tmp, path)
  } catch (err) {
    await unlink(tmp).catch(() => {})
    throw err
  }
  // Make the rename itself durable (best effort: not every platform can fsync a folder).
  try {
    const dir = await open(dirname(path), 'r')
    await dir.sync().finally(() => dir.close())
  } catch {
    /* ignored */
  }
}

/** Debounced, serialized saving of the sandbox state to its data file. */
export class Saver {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false

  constructor(
    private readonly path: string,
    private readonly snapshot: () => PersistedData,
    private readonly onError: (err: Error) => void,
    private readonly delayMs = 150,
  ) {}

  /** Schedules a save within `delayMs` (coalescing bursts). */
  schedule(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.flush()
    }, this.delayMs)
  }

  /** Saves now (waiting for a save in flight, then saving the latest state once more). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      do {
        this.again = false
        const data = this.snapshot()
        const text = JSON.stringify({ format: DATA_FORMAT, version: 1, ...data })
        try {
          await writeAtomic(this.path, text)
        } catch (err) {
          this.onError(err as Error)
        }
      } while (this.again)
    })().finally(() => {
      this.running = null
    })
    return this.running
  }
}

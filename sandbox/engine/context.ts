import type { Release } from '@contract/releases'
import {
  SandboxHttpError,
  type Rng,
  type SandboxContext,
  type SandboxContextOptions,
} from '../types'
import type { EngineDb } from './db'
import type { EngineSessions } from './sessions'

/** The sandbox clock: real time plus an offset that tests move forward. */
export class SandboxClock {
  private offsetMs = 0
  now(): number {
    return Date.now() + this.offsetMs
  }
  advance(ms: number): void {
    this.offsetMs += ms
  }
  reset(): void {
    this.offsetMs = 0
  }
}

/** Keeps the most recent log lines (for GET /__control/log) and forwards each line. */
export class LogBuffer {
  private readonly lines: string[] = []
  constructor(
    private readonly sink: (line: string) => void,
    private readonly max = 500,
  ) {}
  write(line: string): void {
    this.lines.push(line)
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max)
    this.sink(line)
  }
  recent(): string[] {
    return [...this.lines]
  }
}

/** Builds the context handed to seeders, ticks and handlers. `rng` is read through a getter. */
export function createContext(parts: {
  db: EngineDb
  sessions: EngineSessions
  rng: () => Rng
  release: Release
  clock: SandboxClock
  log: LogBuffer
  options: SandboxContextOptions
}): SandboxContext {
  return {
    db: parts.db,
    sessions: parts.sessions,
    get rng() {
      return parts.rng()
    },
    release: parts.release,
    now: () => new Date(parts.clock.now()),
    log: (line) => parts.log.write(line),
    options: parts.options,
    notFound(what?: string): never {
      throw new SandboxHttpError(404, what ? `${what} not found` : 'Record Not Found')
    },
    invalid(fieldErrors, message = 'Parameter Error'): never {
      throw new SandboxHttpError(422, message, fieldErrors)
    },
    error(status, message): never {
      throw new SandboxHttpError(status, message)
    },
  }
}

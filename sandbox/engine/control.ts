import { z } from 'zod'
import { SandboxHttpError, type SandboxContext } from '../types'
import type { LogBuffer, SandboxClock } from './context'
import { errorBody, fieldErrorsOf } from './errors'
import { faultsPatch, type FaultState } from './faults'
import { parseJsonBody } from './validation'

/** What the control endpoints reach of the engine (the engine passes itself). */
export interface ControlledEngine {
  readonly faults: FaultState
  readonly clock: SandboxClock
  readonly ctx: SandboxContext
  readonly logs: LogBuffer
  reset(): void
}

const clockBody = z.strictObject({ advanceMs: z.number().int().min(0) })

function parse<T>(schema: z.ZodType<T>, raw: Buffer): T {
  const input = parseJsonBody(raw) ?? {}
  const parsed = schema.safeParse(input)
  if (!parsed.success) {
    throw new SandboxHttpError(
      422,
      'Parameter Error',
      fieldErrorsOf(parsed.error, input, 'is not allowed'),
    )
  }
  return parsed.data
}

/**
 * Test-mode control endpoints under /__control/: POST faults {…}, GET faults, POST reset,
 * POST clock {advanceMs}, GET log. The engine mounts them only when testMode is on.
 */
export function handleControl(
  engine: ControlledEngine,
  method: string,
  name: string,
  raw: Buffer,
): { status: number; body: unknown } {
  const route = `${method} ${name}`
  switch (route) {
    case 'POST faults':
      return { status: 200, body: { data: engine.faults.set(parse(faultsPatch, raw)) } }
    case 'GET faults':
      return { status: 200, body: { data: engine.faults.faults } }
    case 'POST reset':
      engine.reset()
      return { status: 200, body: { data: { success: true } } }
    case 'POST clock': {
      engine.clock.advance(parse(clockBody, raw).advanceMs)
      return { status: 200, body: { data: { now: engine.ctx.now().toISOString() } } }
    }
    case 'GET log':
      return { status: 200, body: { data: { lines: engine.logs.recent() } } }
    default:
      return { status: 404, body: errorBody(404, `No control endpoint ${route}`) }
  }
}

import { z } from 'zod'
import { CHANNEL_NAMES, type ChannelName } from '@contract/channel-names'
import { channelInputs, type ChannelOutput, type ChannelParsed } from '@contract/channels'
import { AppFailure, type AppError, type Result } from '@contract/errors'
import { MAX_JSON_DEPTH, valueNestsDeeper } from '@contract/json-depth'
import { toJsonText } from '../json-text'

/** Who is calling: the Electron IPC wiring or the browser-mode bridge. */
export interface CallContext {
  origin: 'electron' | 'browser'
}

/** The one table of handlers behind the channel map; payloads arrive already validated. */
export type HandlerTable = {
  [C in ChannelName]: (input: ChannelParsed<C>, ctx: CallContext) => Promise<ChannelOutput<C>>
}

/** Turns zod issues into field errors keyed by dotted path. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_'
    ;(out[key] ??= []).push(issue.message)
  }
  return out
}

/** Converts anything thrown by a handler into an AppError that is safe to show (no stack, no secrets). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppFailure) return err.error
  if (err instanceof z.ZodError)
    return {
      code: 'VALIDATION',
      message: 'The request is not valid.',
      fieldErrors: fieldErrorsOf(err),
    }
  return { code: 'INTERNAL', message: 'Something went wrong inside ScanDesk.' }
}

function isChannel(name: string): name is ChannelName {
  return (CHANNEL_NAMES as readonly string[]).includes(name)
}

/**
 * Validates `payload` against the channel map and runs the handler. Always resolves to the JSON
 * text of a Result: errors become data. Used by both the IPC wiring and browser mode.
 */
export async function dispatch(
  table: HandlerTable,
  channel: string,
  payload: unknown,
  ctx: CallContext,
  onInternalError?: (err: unknown) => void,
): Promise<string> {
  let result: Result<unknown>
  if (!isChannel(channel)) {
    result = {
      ok: false,
      error: {
        code: 'UNKNOWN_OPERATION',
        message: `Unknown channel "${String(channel).slice(0, 60)}".`,
      },
    }
    return JSON.stringify(result)
  }
  // Schemas read nested values recursively: a payload deeper than any real one is refused first.
  if (valueNestsDeeper(payload)) {
    result = {
      ok: false,
      error: {
        code: 'VALIDATION',
        message: `The request is nested more than ${MAX_JSON_DEPTH} levels deep; nothing was done.`,
      },
    }
    return JSON.stringify(result)
  }
  const parsed = channelInputs[channel].safeParse(payload ?? {})
  if (!parsed.success) {
    result = {
      ok: false,
      error: {
        code: 'VALIDATION',
        message: 'The request is not valid.',
        fieldErrors: fieldErrorsOf(parsed.error),
      },
    }
    return JSON.stringify(result)
  }
  try {
    const handler = table[channel] as (input: unknown, ctx: CallContext) => Promise<unknown>
    result = { ok: true, data: await handler(parsed.data, ctx) }
  } catch (err) {
    const error = toAppError(err)
    if (error.code === 'INTERNAL') onInternalError?.(err)
    result = { ok: false, error }
  }
  // An answer served again (a 304's copy) is sent as the text it was written as the first time.
  return toJsonText(result)!
}

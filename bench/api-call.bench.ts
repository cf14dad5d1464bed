// Benchmark: one `api.call` through the handler table (validation, account client, response
// check, JSON text for the bridge, parse as the renderer does) against the same request made
// with bare axios, both against the sandbox over loopback, timed in pairs (one call of each, the
// first of the pair alternating), so that the machine's busy spells fall on both sides alike.
import axios from 'axios'
import type { z } from 'zod'
import type { signInResponse } from '@contract/catalog/auth'
import type { upcomingScansResponse } from '@contract/catalog/scans'
import { startSandbox } from '../sandbox/server'
import { addBenchAccount, callChannel, startBenchCore } from './core-call'
import { SMOKE, rounds } from './proc'
import { median, ratioLine, spread, timeEach, timePairs } from './stats'

const ROUNDS = rounds(21)
const PER_ROUND = SMOKE ? 20 : 200
/**
 * Calls made by each side before the rounds, so both are timed with their code optimised: after
 * 200 the core's deeper path was not yet, and rounds of one run read 0.8–1.5x of each other.
 */
const WARM_UP = SMOKE ? 50 : 2000

/** The service's sign-in answer (a token, or a second-factor challenge). */
type SignInResponse = z.infer<typeof signInResponse>
/** The service's answer of scans.upcoming. */
type UpcomingScans = z.infer<typeof upcomingScansResponse>

/** Runs the api.call benchmark and returns its printed lines. */
export async function benchApiCall(): Promise<string[]> {
  const sandbox = await startSandbox({ port: 0, log: () => undefined })
  const { core, close } = await startBenchCore()
  try {
    const accountId = await addBenchAccount(core, sandbox.baseUrl, sandbox.apiKey)

    const signIn = await axios.post<SignInResponse>(
      `${sandbox.baseUrl}/auth/sign_in`,
      { username: 'analyst@sandbox.test', password: 'sandbox-password' },
      { headers: { 'x-api-key': sandbox.apiKey } },
    )
    if (!('token' in signIn.data))
      throw new Error('bare sign-in: the sandbox asked for a second factor')
    const bare = axios.create({
      baseURL: sandbox.baseUrl,
      headers: { 'x-api-key': sandbox.apiKey, authorization: `Bearer ${signIn.data.token}` },
    })

    const viaCore = async () => {
      await callChannel(core, 'api.call', {
        accountId,
        op: 'scans.upcoming',
        input: { query: { limit: 10 } },
      })
    }
    const viaAxios = async () => {
      const res = await bare.get<UpcomingScans>('/v2/scans/upcoming_scans', {
        params: { limit: 10 },
      })
      if (!Array.isArray(res.data.data)) throw new Error('unexpected answer')
    }

    await timeEach(WARM_UP, viaCore)
    await timeEach(WARM_UP, viaAxios)
    const core_: number[] = []
    const base: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const [viaCoreMs, viaAxiosMs] = await timePairs(PER_ROUND, viaCore, viaAxios)
      core_.push(median(viaCoreMs))
      base.push(median(viaAxiosMs))
    }
    return [
      ratioLine(
        `api.call scans.upcoming (limit 10) vs bare axios, ${ROUNDS} rounds × ${PER_ROUND} calls in alternating pairs`,
        median(core_),
        median(base),
        1.1,
      ),
      `  each round's ratio (the machine's noise, not a target): ${spread(core_.map((ms, i) => ms / base[i]))}x`,
    ]
  } finally {
    await close()
    await sandbox.close()
  }
}

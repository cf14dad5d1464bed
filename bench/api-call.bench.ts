// Benchmark: one `api.call` through the handler table (validation, account client, response
// check, JSON text for the bridge, parse as the renderer does) against the same request made
// with bare axios, both against the sandbox over loopback, in alternating rounds of one run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import axios from 'axios'
import { MemoryVault } from '../electron/core/accounts/memory-vault'
import { createCore } from '../electron/core/index'
import { startSandbox } from '../sandbox/server'
import { median, ratioLine, timeEach } from './stats'

const ROUNDS = 11
const PER_ROUND = 200

/** Runs the api.call benchmark and returns its printed lines. */
export async function benchApiCall(): Promise<string[]> {
  const sandbox = await startSandbox({ port: 0, log: () => undefined })
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-bench-'))
  const core = await createCore({
    dataDir,
    mode: 'browser',
    version: 'bench',
    vault: new MemoryVault(),
  })
  try {
    const added = JSON.parse(
      await core.dispatch(
        'accounts.add',
        {
          label: 'Bench',
          baseUrl: sandbox.baseUrl,
          apiKey: sandbox.apiKey,
          username: 'analyst@sandbox.test',
          password: 'sandbox-password',
          release: 'latest',
          color: '#336699',
        },
        { origin: 'browser' },
      ),
    )
    if (!added.ok) throw new Error(`could not add the bench account: ${added.error.message}`)
    const accountId: string = added.data.id

    const signIn = await axios.post(
      `${sandbox.baseUrl}/auth/sign_in`,
      { username: 'analyst@sandbox.test', password: 'sandbox-password' },
      { headers: { 'x-api-key': sandbox.apiKey } },
    )
    const bare = axios.create({
      baseURL: sandbox.baseUrl,
      headers: { 'x-api-key': sandbox.apiKey, authorization: `Bearer ${signIn.data.token}` },
    })

    const viaCore = async () => {
      const text = await core.dispatch(
        'api.call',
        { accountId, op: 'scans.upcoming', input: { query: { limit: 10 } } },
        { origin: 'browser' },
      )
      const result = JSON.parse(text)
      if (!result.ok) throw new Error(result.error.message)
    }
    const viaAxios = async () => {
      const res = await bare.get('/v2/scans/upcoming_scans', { params: { limit: 10 } })
      if (!Array.isArray(res.data.data)) throw new Error('unexpected answer')
    }

    await timeEach(200, viaCore)
    await timeEach(200, viaAxios)
    const core_: number[] = []
    const base: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      base.push(median(await timeEach(PER_ROUND, viaAxios)))
      core_.push(median(await timeEach(PER_ROUND, viaCore)))
    }
    return [
      ratioLine(
        `api.call scans.upcoming (limit 10) vs bare axios, ${ROUNDS} alternating rounds × ${PER_ROUND}`,
        median(core_),
        median(base),
        1.2,
      ),
    ]
  } finally {
    await core.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

// Benchmark: reads served from the encrypted offline copy against the same reads made online, in
// alternating rounds of one run, both through the handler table to the JSON text the renderer
// parses (and parsed): scans.upcoming (small), and a 10,000-row targets list. The service is the
// sandbox over loopback; a pass-through proxy in front of it answers GET /v2/targets with 10,000
// rows built from the sandbox's own first row, so the online baseline parses the same bytes.
import { startSandbox } from '../sandbox/server'
import { startHttpProxy } from '../tests/support/http-proxy'
import { addBenchAccount, callChannel, startBenchCore } from './core-call'
import { SMOKE, rounds } from './proc'
import { median, ratioLine, timeEach } from './stats'

const ROUNDS = rounds(7)
const SMALL_PER_ROUND = SMOKE ? 10 : 200
const BIG_PER_ROUND = SMOKE ? 1 : 5
const BIG_ROWS = 10_000

interface Page {
  data: { id: string; type: string; attributes: Record<string, unknown> }[]
  meta?: Record<string, unknown>
}

/** A proxy to `target` that answers GET /v2/targets with the big page (once known). */
function startProxy(target: string, big: () => string | null) {
  return startHttpProxy(target, {
    intercept(req, res) {
      const body = req.method === 'GET' && req.url?.startsWith('/v2/targets?') ? big() : null
      if (!body) return false
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(body)
      return true
    },
  })
}

/** Runs the offline-copy benchmark and returns its printed lines. */
export async function benchOffline(): Promise<string[]> {
  const sandbox = await startSandbox({ port: 0, log: () => undefined })
  let bigBody: string | null = null
  const proxy = await startProxy(sandbox.baseUrl, () => bigBody)
  const { core, close } = await startBenchCore()
  try {
    const accountId = await addBenchAccount(core, proxy.baseUrl, sandbox.apiKey)
    const read =
      (op: 'scans.upcoming' | 'targets.list', query: Record<string, number>) => async () => {
        const out = await callChannel(core, 'api.call', { accountId, op, input: { query } })
        if (out.data === null) throw new Error('no answer')
      }

    // 10,000 rows shaped like the sandbox's own first target.
    const first = (
      await callChannel(core, 'api.call', {
        accountId,
        op: 'targets.list',
        input: { query: { per_page: 1, page: 2 } },
      })
    ).data as Page
    const row = first.data[0]
    bigBody = JSON.stringify({
      data: Array.from({ length: BIG_ROWS }, (_, i) => ({
        ...row,
        id: `tgt-b${String(i).padStart(5, '0')}`,
        attributes: { ...row.attributes, name: `Bench target ${i}` },
      })),
      meta: {
        ...first.meta,
        total_count: BIG_ROWS,
        per_page: BIG_ROWS,
        current_page: 1,
        total_pages: 1,
      },
    })

    const small = read('scans.upcoming', { limit: 10 })
    const big = read('targets.list', { per_page: 500, page: 1 })
    const offline = (on: boolean) => callChannel(core, 'connectivity.setWorkOffline', { on })
    // Warm both paths (the copy is filled by the online reads).
    await timeEach(SMOKE ? 5 : 50, small)
    await big()
    const cachedSmall: number[] = []
    const onlineSmall: number[] = []
    const cachedBig: number[] = []
    const onlineBig: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      await offline(false)
      onlineSmall.push(median(await timeEach(SMALL_PER_ROUND, small)))
      onlineBig.push(median(await timeEach(BIG_PER_ROUND, big)))
      await offline(true)
      cachedSmall.push(median(await timeEach(SMALL_PER_ROUND, small)))
      cachedBig.push(median(await timeEach(BIG_PER_ROUND, big)))
    }
    await offline(false)
    const bytes = (bigBody.length / 1024 ** 2).toFixed(1)
    return [
      ratioLine(
        `offline copy: api.call scans.upcoming from the copy vs online, ${ROUNDS} alternating rounds × ${SMALL_PER_ROUND} (target < 1 ms median from the copy: ${median(cachedSmall) < 1 ? 'met' : 'missed'})`,
        median(cachedSmall),
        median(onlineSmall),
        1,
      ),
      ratioLine(
        `offline copy: ${BIG_ROWS.toLocaleString('en-US')}-row targets list (${bytes} MiB) from the copy vs online, to the renderer's parsed answer, ${ROUNDS} rounds × ${BIG_PER_ROUND}`,
        median(cachedBig),
        median(onlineBig),
        1,
      ),
    ]
  } finally {
    await close()
    await proxy.close()
    await sandbox.close()
  }
}

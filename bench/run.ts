// `npm run bench`: every benchmark, each printing ratios against a baseline measured in the same run.
// `npm run bench -- download verify` runs only those. SCANDESK_BENCH_GIB sets the file size of
// the download and verify benchmarks in GiB (default 1; the large download is 4× that).
// `--smoke` (what CI runs): 2 rounds on 4 MiB files, to catch a benchmark that no longer runs.
import { benchApiCall } from './api-call.bench'
import { benchBulk } from './bulk.bench'
import { benchDownload } from './download.bench'
import { benchLists } from './lists.bench'
import { benchOffline } from './offline.bench'
import { SMOKE } from './proc'
import { benchStartup } from './startup.bench'
import { benchVerify } from './verify.bench'

const BENCHES: [string, () => Promise<string[]>][] = [
  ['api.call', benchApiCall],
  ['bulk', benchBulk],
  ['download', benchDownload],
  ['lists', benchLists],
  ['offline', benchOffline],
  ['startup', benchStartup],
  ['verify', benchVerify],
]

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((arg) => arg !== '--smoke')
  const unknown = only.filter((name) => !BENCHES.some(([known]) => known === name))
  if (unknown.length)
    throw new Error(
      `unknown benchmark ${unknown.join(', ')}; known: ${BENCHES.map(([n]) => n).join(', ')}`,
    )
  console.log('ScanDesk benchmarks (ratios of medians; baseline measured in this run)')
  if (SMOKE) console.log('smoke run: 2 rounds on 4 MiB; the numbers are printed, not judged')
  for (const [name, bench] of BENCHES)
    if (!only.length || only.includes(name)) for (const line of await bench()) console.log(line)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(1)
})

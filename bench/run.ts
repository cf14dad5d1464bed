// `npm run bench`: every benchmark, each printing ratios against a baseline measured in the same run.
import { benchApiCall } from './api-call.bench'

async function main(): Promise<void> {
  console.log('ScanDesk benchmarks (ratios of medians; baseline measured in this run)')
  for (const line of await benchApiCall()) console.log(line)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(1)
})

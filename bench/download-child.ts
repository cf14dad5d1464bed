// Child process of the download benchmark: one ScanDesk download (downloadToFolder) measured from
// the inside — wall time, peak RSS and the event loop's delay while it runs. Prints one JSON line.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { downloadToFolder } from '../electron/core/files/download'
import { createAccountClient } from '../electron/core/http/client'
import { LOOP_RESOLUTION_MS, type ChildReport, type ChildTask } from './download-task'
import { peakRssBytes, writeScratch } from './proc'

async function main(): Promise<void> {
  const task = JSON.parse(process.env.SCANDESK_BENCH_CHILD ?? '') as ChildTask
  const client = createAccountClient({
    baseUrl: task.baseUrl,
    apiKey: task.apiKey,
    getAuth: () => ({ scheme: 'Bearer', token: task.token }),
    release: 'latest',
    limits: { deadlineMs: 30 * 60_000 },
  })
  const scratchCpu = process.cpuUsage()
  writeScratch(task.folder, task.scratchBytes)
  const scratch = process.cpuUsage(scratchCpu)
  const rssBeforeBytes = process.memoryUsage().rss
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })
  loop.enable()
  const cpuBefore = process.cpuUsage()
  const start = process.hrtime.bigint()
  const result = await downloadToFolder({
    client,
    opId: 'reports.download',
    input: { path: { id: task.reportId }, query: { format: 'pdf' } },
    folder: task.folder,
    fileName: task.fileName,
    format: 'pdf',
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const cpu = process.cpuUsage(cpuBefore)
  loop.disable()
  client.close()
  const report: ChildReport = {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    size: result.size,
    sha256: result.sha256,
    path: result.path,
    rssBeforeBytes,
    peakRssBytes: peakRssBytes(),
    loopP99Ms: loop.percentile(99) / 1e6,
    loopMaxMs: loop.max / 1e6,
    scratchCpuMs: (scratch.user + scratch.system) / 1000,
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`)
    process.exit(1)
  },
)

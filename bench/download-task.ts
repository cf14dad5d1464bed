// What the download benchmark's parent and child processes exchange.

/** What the parent passes in SCANDESK_BENCH_CHILD. */
export interface ChildTask {
  baseUrl: string
  apiKey: string
  token: string
  reportId: string
  folder: string
  fileName: string
  /** Bytes of scratch file written and deleted just before the download (proc.ts writeScratch). */
  scratchBytes: number
}

/** What the child prints (one JSON line on stdout). */
export interface ChildReport {
  ms: number
  /** CPU time of the whole process (all its threads, user + system) during the download. */
  cpuMs: number
  size: number
  sha256: string
  path: string
  rssBeforeBytes: number
  peakRssBytes: number
  loopP99Ms: number
  loopMaxMs: number
  /** CPU time of the scratch write before the download (in the whole process's, not in cpuMs). */
  scratchCpuMs: number
}

/** Sampling interval of the event loop monitor; every sample includes it. */
export const LOOP_RESOLUTION_MS = 1

// Bench helper: the whole sandbox plus huge synthetic reports (streamed, never held in memory).
import { operations } from '@contract/catalog/index'
import { domains } from '../sandbox/domains/index'
import { addSyntheticReport } from '../sandbox/domains/reporting/index'
import { startSandboxWith, type RunningSandbox } from '../sandbox/server'
import type { SandboxDomain } from '../sandbox/types'

/** A running sandbox with one synthetic report per requested size. */
export interface SyntheticSandbox {
  sandbox: RunningSandbox
  /** Bearer token of the seeded analyst (who can read the reports). */
  token: string
  /** Report id of each requested size, in the order asked. */
  reportIds: string[]
  /** The download address of a report's PDF. */
  pdfUrl(reportId: string): string
}

/** Starts the sandbox on 127.0.0.1 (port 0) with synthetic reports of the given sizes. */
export async function startSyntheticSandbox(sizes: number[]): Promise<SyntheticSandbox> {
  const reportIds: string[] = []
  const huge: SandboxDomain = {
    name: 'bench-huge-reports',
    collections: {},
    handlers: {},
    seed: (ctx) => {
      reportIds.length = 0
      for (const size of sizes)
        reportIds.push(addSyntheticReport(ctx, { size, name: `Bench report ${size}` }).id)
    },
  }
  const sandbox = await startSandboxWith(
    { port: 0, log: () => undefined },
    { operations, domains: [...domains, huge] },
  )
  return {
    sandbox,
    token: sandbox.sessionFor('analyst@sandbox.test'),
    reportIds,
    pdfUrl: (id) => `${sandbox.baseUrl}/v2/reports/${encodeURIComponent(id)}/download?format=pdf`,
  }
}

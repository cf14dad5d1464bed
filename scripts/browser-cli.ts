// `npm run browser -- [--demo] [--port N] [--data-dir DIR] [--no-open]` (scripts/browser.mjs runs
// this under tsx, which resolves the `@contract/...` alias from the root tsconfig.json). The entry
// point of browser mode: it carries the sandbox as the demo service and hands it to the core.
// SCANDESK_DEMO_SCAN_MS shortens the demo's scan runs (the sandbox's default is 2 minutes); the
// end-to-end journeys use it to watch a scan finish.
import { demoServiceFactory } from '../electron/core/demo/demo-service'
import { main } from '../electron/core/browser/run'
import { startSandbox } from '../sandbox/server'

const scanDurationMs = Number(process.env.SCANDESK_DEMO_SCAN_MS ?? '')
const demoSandbox: typeof startSandbox = (options) =>
  startSandbox({
    ...options,
    ...(Number.isInteger(scanDurationMs) && scanDurationMs >= 1000 ? { scanDurationMs } : {}),
  })

main(process.argv.slice(2), { demoService: demoServiceFactory(demoSandbox) })

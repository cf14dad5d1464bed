// `npm run browser -- [--demo] [--port N] [--data-dir DIR] [--no-open]` (scripts/browser.mjs runs
// this under tsx, which resolves the `@contract/...` alias from the root tsconfig.json). The entry
// point of browser mode: it carries the sandbox as the demo service and hands it to the core.
import { demoServiceFactory } from '../electron/core/demo/demo-service'
import { main } from '../electron/core/browser/run'
import { startSandbox } from '../sandbox/server'

main(process.argv.slice(2), { demoService: demoServiceFactory(startSandbox) })

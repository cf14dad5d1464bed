// `npm run browser -- [--demo] [--port N] [--data-dir DIR] [--no-open]` (run with tsx, which
// resolves the `@contract/...` alias from the root tsconfig.json).
import { main } from './run'

main(process.argv.slice(2))

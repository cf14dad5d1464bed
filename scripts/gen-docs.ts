// Writes docs/api.md and docs/openapi.json from the catalog; with --check, fails when they are stale.
import { mkdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { AppFailure } from '@contract/errors'
import { writeAtomically } from '../electron/core/files/atomic-write'
import { apiTable, openApiDocument } from './api-docs'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
const files: Record<string, string> = {
  'docs/api.md': apiTable(),
  'docs/openapi.json': JSON.stringify(openApiDocument(), null, 2) + '\n',
}
const check = process.argv.includes('--check')

async function main(): Promise<number> {
  let stale = 0
  for (const [rel, content] of Object.entries(files)) {
    const file = join(root, rel)
    let current: string
    try {
      current = readFileSync(file, 'utf8')
    } catch {
      current = ''
    }
    if (current === content) continue
    if (check) {
      console.error(`${rel} is stale: run npm run docs:api`)
      stale++
      continue
    }
    mkdirSync(dirname(file), { recursive: true })
    // Readable like any file of the checkout (0666 before the umask), not only by its writer.
    await writeAtomically(dirname(file), basename(file), content, {
      place: 'replace',
      doing: `write ${rel}`,
      mode: 0o666,
    })
    console.log(`wrote ${rel}`)
  }
  return stale
}

main().then(
  (stale) => process.exit(stale ? 1 : 0),
  (err: unknown) => {
    console.error(err instanceof AppFailure ? err.error.message : err)
    process.exit(1)
  },
)

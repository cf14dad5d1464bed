// Writes docs/api.md and docs/openapi.json from the catalog; with --check, fails when they are stale.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { apiTable, openApiDocument } from './api-docs'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
const files: Record<string, string> = {
  'docs/api.md': apiTable(),
  'docs/openapi.json': JSON.stringify(openApiDocument(), null, 2) + '\n',
}
const check = process.argv.includes('--check')
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
  writeFileSync(`${file}.tmp`, content)
  renameSync(`${file}.tmp`, file)
  console.log(`wrote ${rel}`)
}
process.exit(stale ? 1 : 0)

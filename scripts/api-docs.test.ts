import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { operations } from '@contract/catalog/index'
import { apiTable, openApiDocument } from './api-docs'

describe('the generated API docs', () => {
  it('are committed as generated from the current catalog (run npm run docs:api)', () => {
    expect(readFileSync('docs/api.md', 'utf8')).toBe(apiTable())
    expect(readFileSync('docs/openapi.json', 'utf8')).toBe(
      JSON.stringify(openApiDocument(), null, 2) + '\n',
    )
  })

  it('hold one OpenAPI operation per catalog entry, tagged with its group, operationId = id', () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>
    }
    const found = Object.values(doc.paths).flatMap((item) => Object.values(item))
    expect(found.map((o) => o.operationId).sort()).toEqual(operations.map((o) => o.id).sort())
    for (const o of found) expect(o.tags).toEqual([o.operationId.split('.')[0]])
  })
})

import { describe, expect, it } from 'vitest'
import { withoutExamples } from '../renderer/strip-examples.mjs'

const SOURCE = `
export const ops = defineGroup([
  defineOperation({
    id: 'auth.sign_in',
    example: { body: { username: 'a@b.test', password: 'secret-1' } },
    summary: 'Sign in',
  }),
  defineOperation({
    id: 'x.show',
    summary: 'Show',
    example: {
      path: { id: 'x-1' },
    },
  }),
  defineOperation({ id: 'y.list', summary: 'List', example: { query: { q: 'secret-2' } } }),
  other({ example: 'kept' }),
])
`

describe('the catalog without its examples (renderer build)', () => {
  it('drops every defineOperation example, first, middle or last, and nothing else', () => {
    const out = withoutExamples(SOURCE)
    for (const gone of ['secret-1', 'secret-2', 'x-1']) expect(out).not.toContain(gone)
    for (const kept of [
      "id: 'auth.sign_in'",
      "summary: 'Sign in'",
      "summary: 'Show'",
      "summary: 'List'",
      "other({ example: 'kept' })",
    ])
      expect(out).toContain(kept)
    // Still valid code: the same calls, each with its remaining properties.
    expect(out.match(/defineOperation\(/g)).toHaveLength(3)
    expect(out).not.toMatch(/,\s*,/)
  })
})

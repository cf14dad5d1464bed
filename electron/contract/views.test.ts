// The saved views document is checked when it is written as it is when it is read: a save that
// passes the cap, names a view id twice or holds a name the name rule refuses is refused.
import { describe, expect, it } from 'vitest'
import { draftsInputs } from './drafts'
import { MAX_SAVED_VIEWS, savedViewsFile } from './views'

const view = (i: number, over: object = {}) => ({
  id: `view-${i}`,
  name: `View ${i}`,
  resource: 'targets',
  query: {},
  isDefault: false,
  ...over,
})
const save = (views: unknown[], kind = 'saved-views') =>
  draftsInputs['drafts.save'].safeParse({ accountId: 'acct-0001', kind, key: '', data: { views } })

describe('saving the saved views', () => {
  it('takes up to the cap, and refuses more, a repeated id and a disguised name', () => {
    const full = Array.from({ length: MAX_SAVED_VIEWS }, (_, i) => view(i))
    expect(save(full).success).toBe(true)
    const over = save([...full, view(MAX_SAVED_VIEWS)])
    expect(over.error?.issues[0]).toMatchObject({
      path: ['data', 'views'],
      message: 'holds more than 500 views',
    })
    expect(save([view(1), view(1)]).error?.issues[0].message).toBe('names a view id twice')
    expect(save([view(1, { name: 'a\u202Eb' })]).error?.issues[0].message).toMatch(/holds U\+202E/)
    expect(save([view(1, { query: JSON.parse('{"__proto__":"x"}') })]).success).toBe(false)
    // Other kinds of drafts are the renderer's own shapes.
    expect(save([view(1), view(1)], 'saq').success).toBe(true)
  })

  it('refuses a views file whose view names disguise themselves', () => {
    const file = (name: string) =>
      savedViewsFile.safeParse({
        format: 'scandesk-saved-views',
        version: 1,
        views: [{ name, resource: 'targets', query: {} }],
      })
    expect(file('Edge').success).toBe(true)
    for (const name of ['\u202Egnp.exe', 'two\nlines', 'nul\u0000'])
      expect(file(name).success).toBe(false)
  })
})

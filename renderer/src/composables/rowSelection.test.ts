import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { useRowSelection } from './rowSelection'

const rows = ref(['a', 'b', 'c', 'd', 'e'])
const make = () => useRowSelection(() => rows.value)

describe('a list’s row selection', () => {
  it('toggles a row in and out, in the rows’ order', () => {
    const s = make()
    s.toggle('c')
    s.toggle('a')
    expect(s.ids.value).toEqual(['a', 'c'])
    expect(s.has('c')).toBe(true)
    s.toggle('c')
    expect(s.ids.value).toEqual(['a'])
    expect(s.count.value).toBe(1)
  })

  it('extends from the last toggled row, either way, keeping what was chosen', () => {
    const s = make()
    s.toggle('e')
    s.toggle('b')
    s.extendTo('d')
    expect(s.ids.value).toEqual(['b', 'c', 'd', 'e'])
    const t = make()
    t.toggle('d')
    t.extendTo('b')
    expect(t.ids.value).toEqual(['b', 'c', 'd'])
    t.extendTo('a')
    expect(t.ids.value).toEqual(['a', 'b', 'c', 'd'])
  })

  it('extends to the row alone when there is no anchor', () => {
    const s = make()
    s.extendTo('c')
    expect(s.ids.value).toEqual(['c'])
  })

  it('selects all given rows, clears, and keeps only rows still on screen', () => {
    const s = make()
    s.selectAll(['b', 'd'])
    expect(s.ids.value).toEqual(['b', 'd'])
    const before = s.selected.value
    s.retain(['a', 'b', 'd'])
    expect(s.selected.value).toBe(before)
    s.retain(['a', 'b'])
    expect(s.ids.value).toEqual(['b'])
    s.clear()
    expect(s.count.value).toBe(0)
    expect(s.anchor.value).toBeNull()
  })

  it('forgets an anchor that left the screen', () => {
    const s = make()
    s.toggle('a')
    s.retain(['c', 'd', 'e'])
    s.extendTo('d')
    expect(s.ids.value).toEqual(['d'])
  })

  it('extends from the anchor either way without repeating a row', () => {
    const s = make()
    s.toggle('b')
    s.extendTo('d')
    expect(s.ids.value).toEqual(['b', 'c', 'd'])
    s.toggle('e')
    s.extendTo('c')
    expect(s.ids.value).toEqual(['b', 'c', 'd', 'e'])
    expect(s.count.value).toBe(4)
  })

  it('chooses the page by the header and clears all, anchor too', () => {
    let onScreen = ['a', 'b']
    const s = useRowSelection(() => onScreen)
    s.toggle('b')
    onScreen = ['c', 'd']
    s.selectAll(onScreen)
    expect(s.ids.value).toEqual(['c', 'd'])
    s.clear()
    expect(s.ids.value).toEqual([])
    s.extendTo('d')
    expect(s.ids.value).toEqual(['d'])
  })

  it('lists chosen ids no longer on screen after those on screen', () => {
    let onScreen = ['a', 'b', 'c']
    const s = useRowSelection(() => onScreen)
    s.toggle('c')
    s.toggle('a')
    onScreen = ['c', 'd']
    expect(s.ids.value).toEqual(['c', 'a'])
  })
})

import { describe, expect, it } from 'vitest'
import { useRowSelection } from './rowSelection'

describe('useRowSelection', () => {
  const page = ['a', 'b', 'c', 'd', 'e']

  it('toggles a row on and off, keeping the order rows were chosen in', () => {
    const s = useRowSelection(() => page)
    s.toggle('c')
    s.toggle('a')
    expect(s.selected.value).toEqual(['c', 'a'])
    s.toggle('c')
    expect(s.selected.value).toEqual(['a'])
  })

  it('extends from the last toggled row to another, either way, without repeats', () => {
    const s = useRowSelection(() => page)
    s.toggle('b')
    s.extendTo('d')
    expect(s.selected.value).toEqual(['b', 'c', 'd'])
    s.toggle('e')
    s.extendTo('c')
    expect(s.selected.value).toEqual(['b', 'c', 'd', 'e'])
  })

  it('extends from nothing to the one row, and ignores a row not on the page', () => {
    const s = useRowSelection(() => page)
    s.extendTo('x')
    expect(s.selected.value).toEqual([])
    s.extendTo('d')
    expect(s.selected.value).toEqual(['d'])
  })

  it('keeps rows of other pages when the page is chosen, and clears all', () => {
    let visible = ['a', 'b']
    const s = useRowSelection(() => visible)
    s.toggle('b')
    visible = ['c', 'd']
    s.selectAll()
    expect(s.selected.value).toEqual(['b', 'c', 'd'])
    s.clear()
    expect(s.selected.value).toEqual([])
    s.extendTo('d')
    expect(s.selected.value).toEqual(['d'])
  })
})

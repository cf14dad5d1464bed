import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SAQ_COMPLIANCE_LABELS } from '@contract/saq'
import { resourceByKey } from '@/resources'
import { mountWithApp } from '@/test/mountApp'
import CellValue from './CellValue.vue'

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  document.body.innerHTML = ''
})

function tagOf(props: Record<string, unknown>): HTMLElement {
  const wrapper = mountWithApp(CellValue, { props: props as never })
  return wrapper.element as HTMLElement
}

describe('a status cell', () => {
  it('writes a status word for people and tones it when the column says how', () => {
    const column = resourceByKey('saq')!.columns.find((c) => c.key === 'compliance')!
    const bad = tagOf({
      value: 'non_compliant',
      kind: 'status',
      labels: column.labels,
      tones: column.tones,
    })
    expect(bad.textContent?.trim()).toBe(SAQ_COMPLIANCE_LABELS.non_compliant)
    expect(bad.className).toContain('el-tag--danger')
    const exception = tagOf({
      value: 'compliant_legal_exception',
      kind: 'status',
      labels: column.labels,
      tones: column.tones,
    })
    expect(exception.textContent?.trim()).toBe('Compliant with legal exception')
    expect(exception.className).toContain('el-tag--warning')
  })

  it('otherwise shows the word humanized on a neutral tag, as text', () => {
    const plain = tagOf({ value: 'in_progress', kind: 'status' })
    expect(plain.textContent?.trim()).toBe('in progress')
    expect(plain.className).toContain('el-tag--info')
    const hostile = tagOf({ value: '<b>x</b>', kind: 'status' })
    expect(hostile.querySelector('b')).toBeNull()
    expect(hostile.textContent?.trim()).toBe('<b>x</b>')
  })
})

describe('a severity cell', () => {
  // the fill is app.css' rule for a dark tag's data-severity (tests/ui/severity-palette.test.ts
  // reads it; the lists journey checks the colour Chromium paints): no style of its own
  const look = (el: HTMLElement) => [
    el.dataset.severity,
    el.textContent?.trim(),
    el.classList.contains('el-tag--dark'),
    el.getAttribute('style'),
  ]

  it('marks critical and high as dark tags of their severity, one element each', () => {
    const critical = tagOf({ value: 'critical', kind: 'severity' })
    const high = tagOf({ value: 'high', kind: 'severity' })
    expect(look(critical)).toEqual(['critical', 'critical', true, null])
    expect(look(high)).toEqual(['high', 'high', true, null])
    expect(critical.children).toHaveLength(0)
  })

  it('marks each count of a severity-counts cell the same way', () => {
    const cell = mountWithApp(CellValue, {
      props: {
        value: { critical: 1, high: 2, medium: 0, low: 0, info: 0 },
        kind: 'severity-counts',
      },
    })
    const tags = cell.findAll('[data-severity]').map((t) => look(t.element as HTMLElement))
    expect(tags).toEqual([
      ['critical', '1 C', true, null],
      ['high', '2 H', true, null],
    ])
  })
})

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
  const fill = (el: HTMLElement) => el.style.getPropertyValue('--el-tag-bg-color')

  it('fills critical and high with their own colours, in the theme’s variables', () => {
    const critical = tagOf({ value: 'critical', kind: 'severity' })
    const high = tagOf({ value: 'high', kind: 'severity' })
    expect(critical.textContent?.trim()).toBe('critical')
    expect(fill(critical)).toBe('var(--sd-severity-critical, #6b21a8)')
    expect(fill(high)).toBe('var(--sd-severity-high, #b91c1c)')
    expect(high.style.getPropertyValue('--el-tag-text-color')).toBe(
      'var(--sd-severity-text, #ffffff)',
    )
  })

  it('colours each count of a severity-counts cell the same way', () => {
    const cell = tagOf({
      value: { critical: 1, high: 2, medium: 0, low: 0, info: 0 },
      kind: 'severity-counts',
    })
    const tags = [...cell.querySelectorAll<HTMLElement>('[data-severity]')]
    expect(tags.map((t) => [t.dataset.severity, t.textContent?.trim(), fill(t)])).toEqual([
      ['critical', '1 C', 'var(--sd-severity-critical, #6b21a8)'],
      ['high', '2 H', 'var(--sd-severity-high, #b91c1c)'],
    ])
  })
})

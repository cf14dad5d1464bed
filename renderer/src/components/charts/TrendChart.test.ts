import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import TrendChart from './TrendChart.vue'
import type { TrendPoint } from './trend'

const point = (key: string, at: string, critical: number, note?: string): TrendPoint => ({
  key,
  at,
  counts: { critical, high: 1, medium: 0, low: 2, info: 3 },
  ...(note ? { note } : {}),
})

function mountChart(points: TrendPoint[], extra: Record<string, unknown> = {}) {
  return mount(TrendChart, {
    props: {
      points,
      caption: 'Open findings',
      testId: 'trend',
      whenHeader: 'Run finished',
      emptyText: 'No run yet.',
      oneText: 'One run so far',
      ...extra,
    },
    global: { stubs: { Echarts: true } },
  })
}

describe('a trend chart', () => {
  it('draws a line per severity and gives the same numbers in a hidden table', () => {
    const wrapper = mountChart(
      [
        point('r1', '2026-11-01T10:00:00Z', 4, 'Scan A'),
        point('r2', '2026-11-08T10:00:00Z', 2, 'Scan B'),
      ],
      { noteHeader: 'Scan' },
    )
    const option = wrapper.findComponent({ name: 'Echarts' }).props('option') as {
      series: { name: string; data: [number, number][] }[]
    }
    expect(option.series.map((s) => s.name)).toEqual(['Critical', 'High', 'Medium', 'Low', 'Info'])
    expect(option.series[0].data.map((d) => d[1])).toEqual([4, 2])
    expect(wrapper.find('table').classes()).toContain('visually-hidden')
    expect(wrapper.find('.trend-chart__drawing').attributes('aria-hidden')).toBe('true')
    const rows = wrapper.findAll('tbody tr')
    expect(rows.map((r) => r.attributes('data-key'))).toEqual(['r1', 'r2'])
    expect(rows[0].findAll('td').map((td) => td.text())).toEqual([
      'Scan A',
      '4',
      '1',
      '0',
      '2',
      '3',
      '10',
    ])
  })

  it('says a single point in words instead of drawing a one-point line', () => {
    const wrapper = mountChart([point('r1', '2026-11-01T10:00:00Z', 4)])
    expect(wrapper.findComponent({ name: 'Echarts' }).exists()).toBe(false)
    expect(wrapper.find('[data-testid="trend-one"]').text()).toMatch(
      /^One run so far \(.+\): 4 critical, 1 high, 0 medium, 2 low, 3 info\.$/,
    )
    expect(wrapper.findAll('tbody tr')).toHaveLength(1)
  })

  it('says none when there is no point, and has no table', () => {
    const wrapper = mountChart([])
    expect(wrapper.find('[data-testid="trend-none"]').text()).toBe('No run yet.')
    expect(wrapper.find('table').exists()).toBe(false)
    expect(wrapper.findComponent({ name: 'Echarts' }).exists()).toBe(false)
  })

  it('writes days as dates', () => {
    const wrapper = mountChart([point('d1', '2026-11-01', 1), point('d2', '2026-11-02', 1)], {
      days: true,
    })
    const first = wrapper.find('tbody th').text()
    expect(first).toBe(new Date(2026, 10, 1).toLocaleDateString(undefined, { dateStyle: 'medium' }))
  })
})

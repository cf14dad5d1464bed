import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { catchAllRouter } from '@/test/composables'
import SeverityChart from './SeverityChart.vue'
import { SEVERITY_PALETTE } from '@/components/kit/severity'

function mountChart(counts: Record<string, unknown> | null) {
  return mount(SeverityChart, {
    props: { counts, caption: 'Findings by severity' },
    global: { plugins: [catchAllRouter()], stubs: { Echarts: true } },
  })
}

describe('the severity chart', () => {
  it('draws one bar per severity, worst on top, in its colour', () => {
    const wrapper = mountChart({ critical: 2, high: 0, medium: 5, low: 1, info: 9 })
    const option = wrapper.findComponent({ name: 'Echarts' }).props('option') as {
      yAxis: { data: string[] }
      series: { data: { value: number; itemStyle: { color: string } }[] }[]
    }
    expect(option.yAxis.data).toEqual(['Info', 'Low', 'Medium', 'High', 'Critical'])
    expect(option.series[0].data.map((d) => d.value)).toEqual([9, 1, 5, 0, 2])
    // the theme's colour, resolved (the page sets none here: the light one)
    expect(option.series[0].data.at(-1)?.itemStyle.color).toBe(SEVERITY_PALETTE.light.critical)
    expect(option.series[0].data.at(-2)?.itemStyle.color).toBe(SEVERITY_PALETTE.light.high)
  })

  it('gives the same numbers as a table for screen readers and hides the drawing from them', () => {
    const wrapper = mountChart({ critical: 2, high: 'x', medium: -1 })
    const rows = wrapper.findAll('tbody tr').map((tr) => tr.text())
    expect(rows).toEqual(['Critical2', 'High0', 'Medium0', 'Low0', 'Info0'])
    expect(wrapper.find('table').classes()).toContain('visually-hidden')
    expect(wrapper.find('.counts-chart__drawing').attributes('aria-hidden')).toBe('true')
    expect(wrapper.find('figcaption').text()).toBe('Findings by severity (2 in all)')
  })

  it('draws nothing when there are no findings, and says so', () => {
    const wrapper = mountChart({ critical: 0, high: 0, medium: 0, low: 0, info: 0 })
    expect(wrapper.findComponent({ name: 'Echarts' }).exists()).toBe(false)
    expect(wrapper.find('[data-testid="severity-chart-none"]').text()).toBe('No findings.')
    expect(wrapper.findAll('tbody tr')).toHaveLength(5)
  })
})

describe('the severity chart and the theme', () => {
  it('works its colours out again when the theme changes', async () => {
    const wrapper = mountChart({ critical: 1 })
    const first = wrapper.findComponent({ name: 'Echarts' }).props('option')
    document.documentElement.style.setProperty('--el-text-color-regular', '#cfd3dc')
    document.documentElement.classList.add('dark')
    await new Promise((r) => setTimeout(r, 0))
    await wrapper.vm.$nextTick()
    const next = wrapper.findComponent({ name: 'Echarts' }).props('option') as {
      yAxis: { axisLabel: { color: string } }
    }
    expect(next).not.toBe(first)
    expect(next.yAxis.axisLabel.color).toBe('#cfd3dc')
    document.documentElement.classList.remove('dark')
    document.documentElement.style.removeProperty('--el-text-color-regular')
    wrapper.unmount()
  })
})

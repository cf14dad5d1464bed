import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import CountsChart from './CountsChart.vue'
import type { ChartRow } from './counts'

function router() {
  const page = { render: () => null }
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: page },
      { path: '/vulnerabilities', name: 'vulnerabilities', component: page },
    ],
  })
}

const rows: ChartRow[] = [
  {
    key: 'fail',
    label: 'Fail',
    value: 3,
    color: '#e11d48',
    to: { name: 'vulnerabilities', query: { pci_compliant: 'false' } },
  },
  { key: 'pass', label: 'Pass', value: 5, color: '#16a34a' },
]

async function mountChart(list: ChartRow[], total: number | null = null) {
  const r = router()
  await r.push('/')
  const wrapper = mount(CountsChart, {
    props: {
      rows: list,
      caption: 'PCI DSS',
      categoryHeader: 'Verdict',
      valueHeader: 'Findings',
      testId: 'pci',
      emptyText: 'No findings.',
      total,
    },
    global: { plugins: [r], stubs: { Echarts: true } },
  })
  return { wrapper, router: r }
}

type Option = {
  yAxis: { data: string[] }
  series: { data: { value: number; itemStyle: { color: string }; cursor: string }[] }[]
}

describe('a chart of counts', () => {
  it('draws one bar per row, the first on top, in its colour', async () => {
    const { wrapper } = await mountChart(rows)
    const option = wrapper.findComponent({ name: 'Echarts' }).props('option') as Option
    expect(option.yAxis.data).toEqual(['Pass', 'Fail'])
    expect(option.series[0].data.map((d) => [d.value, d.itemStyle.color, d.cursor])).toEqual([
      [5, '#16a34a', 'default'],
      [3, '#e11d48', 'pointer'],
    ])
  })

  it('gives the numbers as a table, with a link where a row leads somewhere', async () => {
    const { wrapper } = await mountChart(rows, 8)
    expect(wrapper.find('figcaption').text()).toBe('PCI DSS (8 in all)')
    const table = wrapper.find('[data-testid="pci-table"]')
    expect(table.classes()).toContain('visually-hidden')
    expect(table.findAll('thead th').map((th) => th.text())).toEqual(['Verdict', 'Findings'])
    expect(table.findAll('tbody tr').map((tr) => tr.text())).toEqual(['Fail3', 'Pass5'])
    expect(table.find('tr[data-key="fail"] a').attributes('href')).toBe(
      '/vulnerabilities?pci_compliant=false',
    )
    expect(table.find('tr[data-key="pass"] a').exists()).toBe(false)
    expect(wrapper.find('.counts-chart__drawing').attributes('aria-hidden')).toBe('true')
  })

  it('goes where a clicked bar leads, and stays for a bar that leads nowhere', async () => {
    const { wrapper, router: r } = await mountChart(rows)
    const chart = wrapper.findComponent({ name: 'Echarts' })
    chart.vm.$emit('click', { dataIndex: 0 }) // the bottom bar: Pass
    await flushPromises()
    expect(r.currentRoute.value.fullPath).toBe('/')
    chart.vm.$emit('click', { dataIndex: 1 })
    await flushPromises()
    expect(r.currentRoute.value.fullPath).toBe('/vulnerabilities?pci_compliant=false')
  })

  it('says so instead of drawing when every count is 0, and keeps the table', async () => {
    const { wrapper } = await mountChart(rows.map((r) => ({ ...r, value: 0 })))
    expect(wrapper.findComponent({ name: 'Echarts' }).exists()).toBe(false)
    expect(wrapper.find('[data-testid="pci-none"]').text()).toBe('No findings.')
    expect(wrapper.findAll('tbody tr')).toHaveLength(2)
    expect(wrapper.find('figcaption').text()).toBe('PCI DSS')
  })

  it('works its colours out again when the theme changes', async () => {
    const { wrapper } = await mountChart(rows)
    document.documentElement.style.setProperty('--el-text-color-regular', '#cfd3dc')
    document.documentElement.classList.add('dark')
    await new Promise((r) => setTimeout(r, 0))
    await wrapper.vm.$nextTick()
    const option = wrapper.findComponent({ name: 'Echarts' }).props('option') as {
      yAxis: { axisLabel: { color: string } }
    }
    expect(option.yAxis.axisLabel.color).toBe('#cfd3dc')
    document.documentElement.classList.remove('dark')
    document.documentElement.style.removeProperty('--el-text-color-regular')
    wrapper.unmount()
  })
})

describe('the whole name of a bar', () => {
  type Tooltip = {
    tooltip: { formatter: (p: unknown) => string }
    yAxis: { tooltip: { show: boolean } }
  }

  it('shows on hover, as text even when the service sent markup', async () => {
    const hostile: ChartRow = {
      key: 'x',
      label: 'Cut name',
      title: 'A long title <img src=x onerror=alert(1)> & more',
      value: 7,
      color: '#b91c1c',
    }
    const { wrapper } = await mountChart([hostile, rows[1]])
    const option = wrapper.findComponent({ name: 'Echarts' }).props('option') as Tooltip
    // the first row is drawn last (on top)
    expect(option.tooltip.formatter({ dataIndex: 1 })).toBe(
      'A long title &#60;img src=x onerror=alert(1)&#62; &#38; more<br>Findings: 7',
    )
    expect(option.tooltip.formatter({ dataIndex: 0 })).toBe('Pass<br>Findings: 5')
    // a name cut beside the axis shows whole on hover (ECharts encodes it)
    expect(option.yAxis.tooltip.show).toBe(true)
  })
})

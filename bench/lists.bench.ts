// Benchmark: the analyst's daily cost on lists. The sandbox with the large seed (the analyst sees
// ~70,000 findings and ~14,000 targets), browser mode with an account on it, and Debian's
// Chromium. For the vulnerabilities and targets lists each user action — open the list (cold and
// revisited), choose a filter, sort, next page, 100 rows a page — is timed inside the page from
// the action to the new rows on screen (the rows' ids changed, then two animation frames: painted).
// The baseline, measured in the same page right after: the very bridge request the screen sent,
// replayed with `fetch`, plus a plain <table> of its rows. Then the renderer's heap and the
// browser-mode process's RSS across 100 list visits.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { waitForList, type BrowserMode } from '../tests/e2e/browser-mode'
import { openBenchApp } from './app'
import { SMOKE, mib, rounds } from './proc'
import { startProfile, startTimeline } from './profile'
import { median } from './stats'

// SCANDESK_BENCH_ROUNDS and SCANDESK_BENCH_VISITS shorten a run while iterating on a fix.
const ROUNDS = Number(process.env.SCANDESK_BENCH_ROUNDS) || rounds(7)
const VISITS = Number(process.env.SCANDESK_BENCH_VISITS) || (SMOKE ? 6 : 100)
// For finding where an action's time goes: SCANDESK_BENCH_LISTS_TRACE=1 prints each action's
// bridge calls and files (ms from the action to sent and to answered); SCANDESK_BENCH_LISTS_PROFILE
// names a file prefix for the page's CPU profile of each action of the first round.
const TRACE = !!process.env.SCANDESK_BENCH_LISTS_TRACE
const PROFILE = process.env.SCANDESK_BENCH_LISTS_PROFILE || null
// SCANDESK_BENCH_LISTS_TIMELINE=1: each action's main-thread work by kind (script, style, layout,
// paint, gc) from the page's timeline, every round.
const TIMELINE = !!process.env.SCANDESK_BENCH_LISTS_TIMELINE
const GOAL_MEDIAN = 1.5
const GOAL_WORST = 2.5
const GOAL_HEAP_MIB = 10
const GOAL_RSS_MIB = 30

// Installed before the app's scripts: records each bridge `api.call` (to replay the very request
// a screen sent) and offers timing helpers. Plain JavaScript: it runs in the page.
const PAGE_HELPERS = `
(() => {
  const calls = []
  const realFetch = window.fetch.bind(window)
  window.fetch = function (input, init) {
    try {
      const url = typeof input === 'string' ? input : input.url
      if (url.includes('/bridge/call/api.call') && init && typeof init.body === 'string') {
        // replayed without the app's signal: the app cancelling its own read (a list left, a
        // superseded page) must not abort the baseline's copy of it
        const call = {
          url,
          init: { ...init, signal: undefined },
          op: JSON.parse(init.body).op,
          t0: performance.now(),
        }
        calls.push(call)
        if (calls.length > 100) calls.shift()
        const answer = realFetch(input, init)
        answer.then(
          () => (call.t1 = performance.now()),
          () => (call.t1 = -1),
        )
        return answer
      }
    } catch {}
    return realFetch(input, init)
  }
  const frames = () =>
    new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))
  const table = (resource) =>
    [...document.querySelectorAll('.resource-table[data-resource="' + resource + '"]')].find(
      (el) => el.offsetParent !== null,
    ) ?? null
  const sig = (resource) => {
    const t = table(resource)
    if (!t) return ''
    return [...t.querySelectorAll('[data-testid="resource-row"]')].map((r) => r.dataset.id).join()
  }
  const visible = (selector, text) =>
    [...document.querySelectorAll(selector)].find(
      (el) => el.offsetParent !== null && (text === undefined || el.textContent.trim() === text),
    )
  const acts = {
    click: (selector, text) => () => {
      const el = visible(selector, text)
      if (!el) throw new Error('nothing to click: ' + selector + ' ' + (text ?? ''))
      el.click()
    },
    type: (selector, value) => () => {
      const el = visible(selector)
      if (!el) throw new Error('no field: ' + selector)
      el.value = value
      el.dispatchEvent(new Event('input', { bubbles: true }))
      el.dispatchEvent(new Event('change', { bubbles: true }))
    },
  }
  window.__bench = {
    // the bridge calls sent or answered since \`since\` (ms of the page's clock): op, sent, answered
    // the bridge calls and files of the last timed action: ms from the action to sent and answered
    trace() {
      const since = this.started
      const ms = (t) => Math.round(t - since)
      const ops = calls
        .filter((c) => c.t0 >= since || !c.t1 || c.t1 >= since)
        .map((c) => c.op + ' ' + ms(c.t0) + '→' + (c.t1 ? ms(c.t1) : '…'))
      const others = performance
        .getEntriesByType('resource')
        .filter((e) => !e.name.includes('api.call') && e.responseEnd >= since)
        .map((e) => e.name.split('/').pop() + ' ' + ms(e.startTime) + '→' + ms(e.responseEnd))
      return [...ops, ...others]
    },
    // ms from the action to its new rows painted
    async time(resource, act, args) {
      const before = sig(resource)
      const changed = () => {
        const now = sig(resource)
        return now !== '' && now !== before
      }
      const start = performance.now()
      this.started = start
      acts[act](...args)()
      await new Promise((resolve, reject) => {
        if (changed()) return resolve()
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error('the rows of ' + resource + ' never changed'))
        }, 60000)
        const observer = new MutationObserver(() => {
          if (!changed()) return
          observer.disconnect()
          clearTimeout(timer)
          resolve()
        })
        observer.observe(document.body, { subtree: true, childList: true, attributes: true })
      })
      await frames()
      return performance.now() - start
    },
    // ms to replay the screen's last request of op and paint a plain table of its rows
    async baseline(op) {
      const call = [...calls].reverse().find((c) => c.op === op)
      if (!call) throw new Error('the screen sent no ' + op)
      const start = performance.now()
      const response = await realFetch(call.url, call.init)
      let rows = JSON.parse(await response.text())
      while (rows && !Array.isArray(rows)) rows = rows.data
      if (!rows || !rows.length) throw new Error('the replayed ' + op + ' answered no rows')
      const plain = document.createElement('table')
      const body = document.createElement('tbody')
      for (const row of rows) {
        const tr = document.createElement('tr')
        for (const v of [row.id, ...Object.values(row.attributes ?? {})]) {
          const td = document.createElement('td')
          td.textContent = v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? '')
          tr.appendChild(td)
        }
        body.appendChild(tr)
      }
      plain.appendChild(body)
      document.body.appendChild(plain)
      void plain.offsetHeight
      await frames()
      const ms = performance.now() - start
      plain.remove()
      return ms
    },
  }
})()
`

/** One list and the actions timed on it. */
interface ListCase {
  resource: string
  op: string
  /** Opens a control that is not the timed action (a select's dropdown). */
  filter: { open?: string; act: [string, string[]] }
  sortLabel: string
}

const CASES: ListCase[] = [
  {
    resource: 'vulnerabilities',
    op: 'vulnerabilities.list',
    filter: {
      open: '[data-testid="resource-filters"] [data-filter="severity"]',
      act: ['click', ['.el-select-dropdown__item', 'high']],
    },
    sortLabel: 'Title',
  },
  {
    resource: 'targets',
    op: 'targets.list',
    filter: {
      act: ['type', ['input[data-filter="tag"], [data-filter="tag"] input', 'pci']],
    },
    sortLabel: 'Name',
  },
]

const nav = (group: string) => `[data-testid="nav-group"][data-group="${group}"]`
const DASHBOARD = '[data-testid="nav-dashboard"]'

async function timed(page: Page, resource: string, act: string, args: string[]) {
  return page.evaluate(
    `window.__bench.time(${JSON.stringify(resource)}, ${JSON.stringify(act)}, ${JSON.stringify(args)})`,
  ) as Promise<number>
}
async function baseline(page: Page, op: string) {
  return page.evaluate(`window.__bench.baseline(${JSON.stringify(op)})`) as Promise<number>
}

/** Times every action of one list once, each followed by its baseline. */
async function roundOf(
  page: Page,
  app: BrowserMode,
  c: ListCase,
  add: (action: string, ms: number, base: number) => void,
  notes: string[],
  first: boolean,
): Promise<void> {
  const measure = async (action: string, act: string, args: string[]) => {
    const profile = PROFILE && first ? await startProfile(page) : null
    const timeline = TIMELINE ? await startTimeline(page) : null
    const ms = await timed(page, c.resource, act, args).catch((err: unknown) => {
      throw new Error(`${c.resource}, ${action}: ${err instanceof Error ? err.message : err}`)
    })
    if (timeline)
      notes.push(`  ${c.resource}, ${action} (${ms.toFixed(0)} ms): ${await timeline.stop()}`)
    if (profile) {
      const file = `${PROFILE}-${c.resource}-${action.replace(/\W+/g, '-')}.cpuprofile`
      notes.push(`  ${c.resource}, ${action}:`, ...(await profile.stop(file)))
    }
    if (TRACE) {
      const calls = (await page.evaluate(`window.__bench.trace()`)) as string[]
      notes.push(`  ${c.resource}, ${action}: ${calls.join(', ')}`)
    }
    await waitForList(page, c.resource)
    add(action, ms, await baseline(page, c.op))
  }
  // cold: a fresh page load, the list's route never opened
  await app.goto(page, 'dashboard')
  await page.locator(nav(c.resource)).waitFor({ timeout: 60_000 })
  await measure('open (cold)', 'click', [nav(c.resource)])
  await measure('sort', 'click', ['th.is-sortable', c.sortLabel])
  await measure('next page', 'click', ['[data-testid="resource-pager"] .btn-next'])
  await page.locator('[data-testid="resource-pager"] .el-pagination__sizes .el-select').click()
  await page.locator('.el-select-dropdown__item:visible', { hasText: '100/page' }).waitFor()
  await measure('100 a page', 'click', ['.el-select-dropdown__item', '100/page'])
  if (c.filter.open) {
    await page.locator(c.filter.open).click()
    await page.locator('.el-select-dropdown__item:visible').first().waitFor()
  }
  await measure('filter', ...c.filter.act)
  await page.locator(DASHBOARD).click()
  await page.waitForURL((url) => url.hash.startsWith('#/dashboard'))
  await measure('open (revisited)', 'click', [nav(c.resource)])
}

/** Resident memory of a process in bytes (VmRSS). */
function rssOf(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!m) throw new Error(`no VmRSS for process ${pid}`)
  return Number(m[1]) * 1024
}

/** Runs the lists benchmark and returns its printed lines. */
export async function benchLists(): Promise<string[]> {
  const { seed, app, page, problems, close } = await openBenchApp(PAGE_HELPERS)
  const lines: string[] = []
  try {
    const samples = new Map<string, { app: number[]; base: number[] }>()
    const notes: string[] = []
    for (let round = 0; round < ROUNDS; round++)
      for (const c of CASES)
        await roundOf(
          page,
          app,
          c,
          (action, ms, base) => {
            const key = `${c.resource}: ${action}`
            const s = samples.get(key) ?? { app: [], base: [] }
            s.app.push(ms)
            s.base.push(base)
            samples.set(key, s)
          },
          notes,
          round === 0,
        )

    const ratios: number[] = []
    lines.push(
      `lists (${seed} seed, ${ROUNDS} rounds; baseline: the same bridge request replayed with fetch + a plain <table>)`,
    )
    for (const [key, s] of samples) {
      const a = median(s.app)
      const b = median(s.base)
      ratios.push(a / b)
      lines.push(
        `  ${key}: ${(a / b).toFixed(2)}x (ScanDesk ${a.toFixed(0)} ms vs baseline ${b.toFixed(0)} ms median)`,
      )
    }
    const mid = median(ratios)
    const worst = Math.max(...ratios)
    const verdict = (v: number, goal: number) => (v <= goal ? 'within' : 'OVER')
    lines.push(
      `lists: median ${mid.toFixed(2)}x (goal ≤ ${GOAL_MEDIAN}x: ${verdict(mid, GOAL_MEDIAN)}), worst ${worst.toFixed(2)}x (goal ≤ ${GOAL_WORST}x: ${verdict(worst, GOAL_WORST)})`,
      ...notes,
    )

    // memory across list visits: the renderer's heap after a forced collection, and main's RSS
    const cdp = await page.context().newCDPSession(page)
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage')
      return (await cdp.send('Runtime.getHeapUsage')).usedSize
    }
    const visit = async () => {
      await page.locator(nav('vulnerabilities')).click()
      await waitForList(page, 'vulnerabilities')
      await page.locator(DASHBOARD).click()
      await page.waitForURL((url) => url.hash.startsWith('#/dashboard'))
    }
    for (let i = 0; i < 5; i++) await visit() // warm: code loaded, caches filled
    const heap0 = await heap()
    const rss0 = rssOf(app.pid)
    for (let i = 0; i < VISITS; i++) await visit()
    const heapGrowth = (await heap()) - heap0
    const rssGrowth = rssOf(app.pid) - rss0
    lines.push(
      `lists memory over ${VISITS} visits: renderer heap ${heapGrowth >= 0 ? '+' : ''}${mib(heapGrowth)} (goal ≤ ${GOAL_HEAP_MIB} MiB: ${verdict(heapGrowth / 2 ** 20, GOAL_HEAP_MIB)}), browser-mode RSS ${rssGrowth >= 0 ? '+' : ''}${mib(rssGrowth)} (goal ≤ ${GOAL_RSS_MIB} MiB: ${verdict(rssGrowth / 2 ** 20, GOAL_RSS_MIB)})`,
    )
    if (problems.length) lines.push(`lists: the page reported ${problems.join('; ')}`)
  } finally {
    await close()
  }
  return lines
}

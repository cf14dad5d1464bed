// A page's CPU profile through the Chrome DevTools Protocol, and where its long stretches of work
// went: for finding what a long task does before changing code (the benchmarks' knobs turn it on).
import { writeFileSync } from 'node:fs'
import type { CDPSession, Page } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Starts the V8 sampling profiler in `page`; `stop(file)` saves the profile and summarises it. */
export async function startProfile(page: Page): Promise<{ stop(file: string): Promise<string[]> }> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
  await cdp.send('Profiler.start')
  return {
    async stop(file) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
      await cdp.detach()
      writeFileSync(file, JSON.stringify(profile))
      return [`  profile saved to ${file}`, ...busyStretches(profile)]
    },
  }
}

const STRETCH_MS = 40
/** Stretches described, the longest first. */
const SHOWN = 6

/**
 * Stretches of samples with JavaScript on the stack and no idle sample between them longer than
 * STRETCH_MS (the long tasks, roughly), each with the functions that took most of it: self time,
 * and total time of the app's own functions.
 */
function busyStretches(profile: Profile): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const found: { ms: number; lines: string[] }[] = []
  let t = profile.startTime
  let stretch: { start: number; samples: [number, number][] } | null = null
  const flush = (end: number) => {
    if (!stretch) return
    const ms = (end - stretch.start) / 1000
    if (ms >= STRETCH_MS) found.push({ ms, lines: describe(stretch, ms) })
    stretch = null
  }
  const describe = (s: { start: number; samples: [number, number][] }, ms: number) => {
    const self = new Map<string, number>()
    const total = new Map<string, number>()
    for (const [id, dt] of s.samples) {
      const n = byId.get(id)!
      self.set(name(n), (self.get(name(n)) ?? 0) + dt)
      const seen = new Set<string>()
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const k = name(byId.get(at)!)
        if (seen.has(k)) continue
        seen.add(k)
        total.set(k, (total.get(k) ?? 0) + dt)
      }
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `${(v / 1000).toFixed(1)} ${k}`)
        .join(' | ')
    return [
      `  busy ${ms.toFixed(0)} ms at ${((s.start - profile.startTime) / 1000).toFixed(0)} ms`,
      `    self: ${top(self, 8)}`,
      `    total: ${top(total, 25)}`,
    ]
  }
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i]
    const dt = profile.timeDeltas[i + 1] ?? 0
    const fn = byId.get(id)!.callFrame.functionName
    // (program) is the browser's own work (style, layout): part of a task
    if (fn === '(idle)') return flush(t)
    stretch ??= { start: t, samples: [] }
    stretch.samples.push([id, dt])
  })
  flush(t)
  const longest = found.sort((a, b) => b.ms - a.ms).slice(0, SHOWN)
  return [
    `  stretches of work over ${STRETCH_MS} ms: ${found.length}${found.length > SHOWN ? ` (the ${SHOWN} longest:)` : ''}`,
    ...longest.flatMap((s) => s.lines),
  ]
}

function name(n: ProfileNode): string {
  const f = n.callFrame
  const file = f.url.split('/').pop() ?? ''
  return `${f.functionName || '(anon)'}@${file}:${f.lineNumber + 1}`
}

interface TraceEvent {
  name: string
  ph: string
  dur?: number
  tid: number
  ts: number
  args?: { data?: { frame?: string } }
}

/** Kinds of the renderer's main-thread work, by the timeline's event names. */
const KINDS: [string, RegExp][] = [
  [
    'script',
    /^(FunctionCall|EvaluateScript|TimerFire|FireAnimationFrame|RunMicrotasks|v8\.callFunction|EventDispatch|XHRReadyStateChange)$/,
  ],
  ['style', /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)$/],
  ['layout', /^(Layout|UpdateLayerTree|IntersectionObserverController::computeIntersections)$/],
  ['paint', /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|RasterTask)$/],
  ['gc', /^(MinorGC|MajorGC|V8\.GC.*|BlinkGC\..*)$/],
]

/**
 * Starts the page's timeline trace (Chrome's tracing); `stop()` sums the main thread's top-level
 * work by kind (script, style, layout, paint, gc): where an action's time went besides JavaScript.
 */
export async function startTimeline(page: Page): Promise<{ stop(): Promise<string> }> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]))
  })
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8',
    transferMode: 'ReportEvents',
  })
  return {
    async stop() {
      const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()))
      await cdp.send('Tracing.end')
      await done
      await cdp.detach()
      // the renderer's main thread: the one running the page's scripts
      const byThread = new Map<number, number>()
      for (const e of events)
        if (e.name === 'FunctionCall' || e.name === 'EvaluateScript')
          byThread.set(e.tid, (byThread.get(e.tid) ?? 0) + (e.dur ?? 0))
      const main = [...byThread].sort((a, b) => b[1] - a[1])[0]?.[0]
      const sums = new Map<string, number>()
      // only complete events not inside another counted one (nesting would count twice)
      const counted = events
        .filter((e) => e.tid === main && e.ph === 'X' && e.dur !== undefined)
        .map((e) => ({ e, kind: KINDS.find(([, re]) => re.test(e.name))?.[0] }))
        .filter((x) => x.kind)
        .sort((a, b) => a.e.ts - b.e.ts)
      let end = -Infinity
      for (const { e, kind } of counted) {
        if (e.ts < end) continue
        end = e.ts + e.dur!
        sums.set(kind!, (sums.get(kind!) ?? 0) + e.dur! / 1000)
      }
      const names = new Map<string, number>()
      for (const e of events)
        if (e.tid === main && e.ph === 'X' && e.dur)
          names.set(e.name, (names.get(e.name) ?? 0) + e.dur / 1000)
      const top = [...names].sort((a, b) => b[1] - a[1]).slice(0, 14)
      return (
        KINDS.map(([k]) => `${k} ${(sums.get(k) ?? 0).toFixed(1)}`).join(', ') +
        ' ms; ' +
        top.map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', ')
      )
    },
  }
}

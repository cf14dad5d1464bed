import { describe, expect, it } from 'vitest'
import { createLimiter } from './backgroundReads'

/** A task that runs until `finish()` is called, and says whether it started. */
function task(name: string, log: string[]) {
  let finish!: (value: string) => void
  let fail!: (err: Error) => void
  let started = false
  const run = () => {
    started = true
    log.push(`start ${name}`)
    return new Promise<string>((resolve, reject) => {
      finish = resolve
      fail = reject
    })
  }
  return {
    run,
    get started() {
      return started
    },
    finish: () => finish(name),
    fail: (err: Error) => fail(err),
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe('the background reads limiter', () => {
  it('runs at most its cap at once, the others in the order asked, each as one ends', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((n) => task(n, log))
    const results = tasks.map((t) => limiter.run(t.run))
    await settle()
    expect(log).toEqual(['start a', 'start b'])
    expect([limiter.running, limiter.waiting]).toEqual([2, 3])

    tasks[1].finish()
    await settle()
    expect(log).toEqual(['start a', 'start b', 'start c'])
    expect(limiter.running).toBe(2)

    // a failure frees its place too, and reaches its caller
    tasks[0].fail(new Error('refused'))
    await expect(results[0]).rejects.toThrow('refused')
    await settle()
    expect(log.at(-1)).toBe('start d')

    for (const t of tasks.slice(2)) {
      t.finish()
      await settle()
    }
    expect(await Promise.all(results.slice(1))).toEqual(['b', 'c', 'd', 'e'])
    expect([limiter.running, limiter.waiting]).toEqual([0, 0])
  })

  it('a read aborted while it waits never starts, rejects with the reason and frees its turn', async () => {
    const limiter = createLimiter(1)
    const log: string[] = []
    const [a, b, c] = ['a', 'b', 'c'].map((n) => task(n, log))
    const left = new AbortController()
    const ra = limiter.run(a.run)
    const rb = limiter.run(b.run, left.signal)
    const rc = limiter.run(c.run)
    await settle()
    expect(limiter.waiting).toBe(2)

    const reason = new DOMException('left the dashboard', 'AbortError')
    left.abort(reason)
    await expect(rb).rejects.toBe(reason)
    expect(limiter.waiting).toBe(1)

    a.finish()
    await ra
    await settle()
    expect(b.started).toBe(false)
    expect(log).toEqual(['start a', 'start c'])
    c.finish()
    expect(await rc).toBe('c')
  })

  it('does not start a read whose signal was aborted before it was asked', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const a = task('a', log)
    const gone = new AbortController()
    gone.abort(new Error('gone'))
    await expect(limiter.run(a.run, gone.signal)).rejects.toThrow('gone')
    expect(a.started).toBe(false)
    expect([limiter.running, limiter.waiting]).toEqual([0, 0])
  })

  it('an abort after the start is the task’s own business: its place stays taken until it ends', async () => {
    const limiter = createLimiter(1)
    const log: string[] = []
    const [a, b] = ['a', 'b'].map((n) => task(n, log))
    const signal = new AbortController()
    const ra = limiter.run(a.run, signal.signal)
    limiter.run(b.run).catch(() => undefined)
    await settle()
    signal.abort(new Error('late'))
    await settle()
    expect(log).toEqual(['start a'])
    a.finish()
    expect(await ra).toBe('a')
    await settle()
    expect(log).toEqual(['start a', 'start b'])
    b.finish()
  })
})

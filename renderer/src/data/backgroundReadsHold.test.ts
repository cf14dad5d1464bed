import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createLimiter, holdBackgroundReadsWhileNavigating } from './backgroundReads'

const settle = () => new Promise((r) => setTimeout(r, 0))

/** A task that never ends, recording that it started. */
const endless = (log: string[], name: string) => () => {
  log.push(name)
  return new Promise<never>(() => undefined)
}

describe('holding the background reads', () => {
  it('starts no waiting task while held; the queue moves once every hold is released', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const first = limiter.hold()
    const second = limiter.hold()
    void limiter.run(endless(log, 'a'))
    await settle()
    expect(log).toEqual([])
    expect(limiter.waiting).toBe(1)
    first()
    first() // a release twice counts once
    await settle()
    expect(log).toEqual([])
    second()
    await settle()
    expect(log).toEqual(['a'])
    expect([limiter.running, limiter.waiting]).toEqual([1, 0])
  })

  it('a task aborted while held never starts', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const release = limiter.hold()
    const abort = new AbortController()
    const read = limiter.run(endless(log, 'a'), abort.signal)
    abort.abort(new Error('left'))
    await expect(read).rejects.toThrow('left')
    release()
    await settle()
    expect(log).toEqual([])
  })
})

describe('holding the background reads while the router moves', () => {
  const page = { template: '<div />' }
  function routerWith(limiter: ReturnType<typeof createLimiter>) {
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/dashboard', component: page },
        { path: '/list', component: page },
        { path: '/refused', component: page },
        { path: '/broken', component: () => Promise.reject(new Error('chunk gone')) },
      ],
    })
    holdBackgroundReadsWhileNavigating(router, limiter)
    router.beforeEach((to) => to.path !== '/refused')
    return router
  }

  it('a read asked while moving waits for the move, then starts', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const router = routerWith(limiter)
    await router.push('/dashboard')
    await settle()
    let asked = false
    router.beforeEach(() => {
      if (asked) return
      asked = true
      void limiter.run(endless(log, 'panel'))
    })
    const moved = router.push('/list')
    await moved
    expect(log).toEqual([]) // still held right after the move (the old screen unmounts now)
    await settle()
    expect(log).toEqual(['panel'])
  })

  it('a refused move or a failed one lets the screen it stays on read', async () => {
    const limiter = createLimiter(2)
    const log: string[] = []
    const router = routerWith(limiter)
    await router.push('/dashboard')
    await settle()

    let release = limiter.hold() // reads asked during the refused move
    void limiter.run(endless(log, 'a'))
    await router.push('/refused')
    release()
    await settle()
    expect(router.currentRoute.value.path).toBe('/dashboard')
    expect(log).toEqual(['a'])

    release = limiter.hold()
    void limiter.run(endless(log, 'b'))
    await router.push('/broken').catch(() => undefined)
    release()
    await settle()
    expect(router.currentRoute.value.path).toBe('/dashboard')
    expect(log).toEqual(['a', 'b'])
  })
})

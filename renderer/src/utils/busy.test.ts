import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { withBusy } from './busy'

describe('withBusy', () => {
  it('holds the flag on while the work runs and hands back its answer', async () => {
    const busy = ref(false)
    let release!: (v: string) => void
    const done = withBusy(busy, () => new Promise<string>((r) => (release = r)))
    expect(busy.value).toBe(true)
    release('answer')
    await expect(done).resolves.toBe('answer')
    expect(busy.value).toBe(false)
  })

  it('turns the flag off when the work throws, and lets the error through', async () => {
    const busy = ref(false)
    await expect(
      withBusy(busy, async () => {
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(busy.value).toBe(false)
  })
})

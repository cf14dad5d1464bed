import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { theTestId } from '@/test/dom'
import { mountWithApp } from '@/test/mountApp'
import { formatDateTime } from '@/utils/format'
import DataFreshness from './DataFreshness.vue'

const NOW = new Date('2030-01-01T12:00:00Z').getTime()
beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] })
  setActivePinia(createPinia())
})
afterEach(() => {
  vi.useRealTimers()
  document.body.innerHTML = ''
})

describe('how fresh the data on screen is', () => {
  it('says nothing for an answer of the service', () => {
    mountWithApp(DataFreshness, { props: { fromCache: false, fetchedAt: '2030-01-01T09:00:00Z' } })
    expect(document.querySelector('[data-testid="data-freshness"]')).toBeNull()
  })

  it('gives the offline copy’s age in words, kept current, and the exact time on hover', async () => {
    const fetchedAt = '2030-01-01T09:00:00Z'
    mountWithApp(DataFreshness, { props: { fromCache: true, fetchedAt } })
    const tag = theTestId('data-freshness')
    expect(tag.textContent?.trim()).toBe('Offline copy · as of 3 hours ago')
    expect(tag.title).toBe(`Offline copy fetched ${formatDateTime(fetchedAt)}`)
    vi.advanceTimersByTime(60 * 60_000)
    await nextTick()
    expect(theTestId('data-freshness').textContent?.trim()).toBe('Offline copy · as of 4 hours ago')
  })
})

import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { scheduleRule } from '@contract/catalog/schedules'
import { useSchemaForm } from '@/data/useSchemaForm'
import { apiCalls, useTwoAccounts } from '@/test/composables'
import { byTestId, shown, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import ScheduleEditor, {
  SCHEDULE_DEBOUNCE_MS,
  describeSchedule,
  monthDayWarning,
} from './ScheduleEditor.vue'

let mounted: { unmount: () => void }[] = []
const fake = useTwoAccounts()
afterEach(() => {
  for (const m of mounted) m.unmount()
  mounted = []
})

const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
type Call = { op: string; input: { body?: Record<string, unknown> } }

function serve(over: Record<string, (p: Call) => unknown> = {}): void {
  fake.handle('api.call', (p: Call) => {
    if (over[p.op]) return over[p.op](p)
    if (p.op === 'schedules.first_schedule_date')
      return answer({
        data: {
          time_zone: p.input.body?.time_zone,
          first: { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
        },
      })
    if (p.op === 'schedules.next_schedule_dates')
      return answer({
        data: {
          time_zone: p.input.body?.time_zone,
          dates: [
            { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
            { at: '2030-04-01T07:00:00Z', local: '2030-04-01T09:00:00+02:00' },
          ],
        },
      })
    return new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

function mountEditor(initial: Record<string, string>) {
  const Host = defineComponent({
    setup() {
      const form = useSchemaForm({
        schema: scheduleRule,
        initial: () => ({ ...initial }),
        send: async () => ({ ok: true as const, data: null }),
      })
      return () => h(ScheduleEditor, { form })
    },
  })
  const wrapper = mountWithApp(Host)
  mounted.push(wrapper)
  return wrapper
}

async function datesSettled(): Promise<void> {
  await sleep(SCHEDULE_DEBOUNCE_MS + 50)
  await flushPromises()
}

describe('the schedule editor', () => {
  it('says the rule in plain words and shows the run dates the service computed', async () => {
    serve()
    mountEditor({ frequency: 'weekly', start_at: '2030-03-25T09:00', time_zone: 'Europe/Berlin' })
    await flushPromises()
    expect(text('schedule-summary')).toBe('Every Monday at 09:00 Europe/Berlin, from 25 March 2030')
    expect(apiCalls(fake)).toHaveLength(0)
    await datesSettled()
    const calls = apiCalls(fake)
    expect(calls.map((c) => c.op).sort()).toEqual([
      'schedules.first_schedule_date',
      'schedules.next_schedule_dates',
    ])
    expect(calls.find((c) => c.op === 'schedules.next_schedule_dates')?.input).toEqual({
      body: {
        frequency: 'weekly',
        start_at: '2030-03-25T09:00',
        time_zone: 'Europe/Berlin',
        count: 5,
      },
    })
    expect(text('schedule-first')).toBe('First run: Mon 25 Mar 2030, 09:00 (UTC+01:00)')
    expect(byTestId('schedule-next')[0].querySelectorAll('li')).toHaveLength(2)
    expect(text('schedule-next')).toContain('Mon 1 Apr 2030, 09:00 (UTC+02:00)')
    expect(shown('schedule-warning')).toBe(false)
  })

  it('warns that a monthly 31st does not exist in some months', async () => {
    serve()
    mountEditor({ frequency: 'monthly', start_at: '2030-01-31T09:00', time_zone: 'UTC' })
    await flushPromises()
    expect(text('schedule-summary')).toBe(
      'On the 31st of every month at 09:00 UTC, from 31 January 2030',
    )
    expect(text('schedule-warning')).toContain(
      'Not every month has a 31st (February, April, June, September and November have no 31st)',
    )
  })

  it('asks nothing for an invalid rule, and says when the service cannot compute the dates', async () => {
    serve({
      'schedules.first_schedule_date': () => new Fail({ code: 'OFFLINE', message: 'No network.' }),
      'schedules.next_schedule_dates': () => new Fail({ code: 'OFFLINE', message: 'No network.' }),
    })
    mountEditor({ frequency: 'daily', start_at: '', time_zone: 'Mars/Olympus' })
    await datesSettled()
    expect(apiCalls(fake)).toHaveLength(0)
    expect(shown('schedule-summary')).toBe(false)
    mounted.pop()?.unmount()
    mountEditor({ frequency: 'daily', start_at: '2030-03-25T09:00', time_zone: 'UTC' })
    await datesSettled()
    expect(text('schedule-first')).toBe(
      'First run: The first run could not be computed: No network.',
    )
  })
})

describe('schedule words', () => {
  it.each([
    ['once', '2030-03-25T09:00', 'Once, on Monday 25 March 2030 at 09:00 UTC'],
    ['daily', '2030-03-25T09:00', 'Every day at 09:00 UTC, from 25 March 2030'],
    [
      'quarterly',
      '2030-03-02T23:30',
      'Every three months on the 2nd at 23:30 UTC, from 2 March 2030',
    ],
  ] as const)('%s from %s', (frequency, start_at, words) => {
    expect(describeSchedule({ frequency, start_at, time_zone: 'UTC' })).toBe(words)
  })

  it('warns for days 29 to 31 of monthly and quarterly rules only', () => {
    expect(monthDayWarning({ frequency: 'monthly', start_at: '2030-01-28T09:00' })).toBeNull()
    expect(monthDayWarning({ frequency: 'weekly', start_at: '2030-01-31T09:00' })).toBeNull()
    expect(monthDayWarning({ frequency: 'quarterly', start_at: '2030-01-30T09:00' })).toContain(
      'February has no 30th',
    )
    expect(monthDayWarning({ frequency: 'monthly', start_at: '2030-01-29T09:00' })).toContain(
      'except in leap years',
    )
  })
})

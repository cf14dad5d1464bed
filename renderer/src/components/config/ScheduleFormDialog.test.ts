import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { apiCalls, mountFormDialog, useTwoAccounts } from '@/test/composables'
import { errorOfField, submitWith, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import ScheduleFormDialog from './ScheduleFormDialog.vue'

type Call = {
  op: string
  input?: { path?: Record<string, string>; body?: Record<string, unknown> }
}
const answer = (data: unknown) => ({ data, fetchedAt: '', fromCache: false })

const fake = useTwoAccounts(() => {
  fake.handle('api.call', (p: Call) => {
    const zone = p.input?.body?.time_zone
    if (p.op === 'schedules.first_schedule_date')
      return answer({
        data: {
          time_zone: zone,
          first: { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
        },
      })
    if (p.op === 'schedules.next_schedule_dates')
      return answer({
        data: {
          time_zone: zone,
          dates: [
            { at: '2030-03-25T08:00:00Z', local: '2030-03-25T09:00:00+01:00' },
            { at: '2030-04-01T07:00:00Z', local: '2030-04-01T09:00:00+02:00' },
          ],
        },
      })
    if (p.op === 'schedules.update')
      return answer({ data: { id: 'sch-1', type: 'schedule', attributes: p.input?.body } })
    if (p.op === 'user.permissions') return answer({ data: { role: 'analyst', permissions: [] } })
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
})

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op) as Call[]
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

describe('the schedule form', () => {
  it('edits a schedule with the editor: plain words, the service’s next runs, the body sent', async () => {
    mountFormDialog(ScheduleFormDialog, 'schedules', {
      title: 'Edit schedule',
      op: 'schedules.update',
      path: { id: 'sch-1' },
      initial: {
        name: 'Weekly perimeter',
        frequency: 'weekly',
        start_at: '2030-03-25T09:00',
        time_zone: 'Europe/Berlin',
      },
    })
    await flushPromises()
    expect(text('schedule-summary')).toBe('Every Monday at 09:00 Europe/Berlin, from 25 March 2030')
    await new Promise((r) => setTimeout(r, 500)) // the editor asks once editing pauses
    await flushPromises()
    expect(text('schedule-next')).toContain('Mon 1 Apr 2030, 09:00 (UTC+02:00)')
    await submitWith('operation-form-submit')
    expect(sent('schedules.update').at(-1)?.input).toMatchObject({
      path: { id: 'sch-1' },
      body: { name: 'Weekly perimeter', frequency: 'weekly', time_zone: 'Europe/Berlin' },
    })
  })

  it('starts a new one weekly in this computer’s zone and refuses it without a first run', async () => {
    mountFormDialog(ScheduleFormDialog, 'schedules', {
      title: 'New schedule',
      op: 'schedules.create',
    })
    await flushPromises()
    expect(theTestId('schedule-frequency').textContent).toContain('Every week')
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
    expect(theTestId('schedule-time-zone').textContent).toContain(zone)
    await submitWith('operation-form-submit')
    expect(await errorOfField('name')).toMatch(/Name/)
    expect(await errorOfField('start_at')).toMatch(/First run/)
    expect(sent('schedules.create')).toHaveLength(0)
  })
})

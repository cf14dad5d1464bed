import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { systemTimeZone } from '@/composables/timeZone'
import { errorOfField } from '@/test/dom'
import { Fail, deferred } from '@/test/fakeScandesk'
import {
  PROFILE_ZONE,
  choose,
  fillWhat,
  me,
  mountWizard,
  next,
  onStep,
  serve,
  storeDraft,
  text,
  typeLines,
  useWizardTests,
  writes,
} from './wizardTestKit'

useWizardTests()

/** Walks a fresh wizard to step 4 with valid steps 1–3. */
async function toWhen(): Promise<void> {
  await fillWhat()
  await next()
  await typeLines('wizard-hosts', '192.0.2.1')
  await next()
  await next()
  expect(onStep('when')).toBe(true)
}

/** The time zone the step shows (the select's chosen label). */
const zoneShown = () => text('schedule-time-zone')

describe('step 4 of the scan wizard (When)', () => {
  it('says under First run that it is empty, keeps the step and puts the caret there', async () => {
    serve()
    await mountWizard()
    await toWhen()
    await choose('wizard-start-scheduled')
    await next()
    expect(onStep('when')).toBe(true)
    expect(await errorOfField('start_at')).toBe('Choose the date and time of the first run.')
    expect(await errorOfField('time_zone')).toBe('')
    expect(document.activeElement).toBe(document.querySelector('[data-field="start_at"] input'))
    expect(writes()).toEqual([])
  })

  it('starts the time zone at the zone of the user’s profile', async () => {
    serve()
    await mountWizard()
    await toWhen()
    await choose('wizard-start-scheduled')
    expect(zoneShown()).toBe(PROFILE_ZONE)
  })

  it('starts at this computer’s zone when the profile cannot be read', async () => {
    serve({ 'user.show': () => new Fail({ code: 'OFFLINE', message: 'Offline.' }) })
    await mountWizard()
    await toWhen()
    await choose('wizard-start-scheduled')
    expect(zoneShown()).toBe(systemTimeZone())
  })

  it('follows a profile read late, but never over a zone the draft already chose', async () => {
    const late = deferred<unknown>()
    serve({ 'user.show': () => late.promise })
    storeDraft(3, {
      what: { name: 'Chosen zone' },
      where: { target_mode: 'new', hosts: '192.0.2.1' },
      when: { start: 'scheduled', time_zone: 'Asia/Tokyo' },
    })
    await mountWizard()
    expect(zoneShown()).toBe('Asia/Tokyo')
    late.resolve(me(PROFILE_ZONE))
    await flushPromises()
    expect(zoneShown()).toBe('Asia/Tokyo')
  })

  it('moves an untouched zone to the profile’s once it arrives', async () => {
    const late = deferred<unknown>()
    serve({ 'user.show': () => late.promise })
    await mountWizard()
    await toWhen()
    await choose('wizard-start-scheduled')
    expect(zoneShown()).toBe(systemTimeZone())
    late.resolve(me('Pacific/Auckland'))
    await flushPromises()
    expect(zoneShown()).toBe('Pacific/Auckland')
  })
})

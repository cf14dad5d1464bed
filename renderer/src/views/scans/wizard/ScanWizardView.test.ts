import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { SCHEDULE_DEBOUNCE_MS } from '@/components/scans/ScheduleEditor.vue'
import { HOSTS_DEBOUNCE_MS, MAX_HOST_FILE_BYTES } from '@/composables/scanWizard'
import { apiCalls } from '@/test/composables'
import { byTestId, click, errorOfField, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import {
  PROFILE_ZONE,
  areaOf,
  choose,
  fillWhat,
  mountWizard,
  next,
  onStep,
  serve,
  sleep,
  storeDraft,
  t,
  text,
  typeLines,
  useWizardTests,
  writes,
} from './wizardTestKit'

useWizardTests()

describe('the scan wizard', () => {
  it('refuses an empty step with the caret on the first error, and sends nothing', async () => {
    serve()
    await mountWizard()
    expect(onStep('what')).toBe(true)
    await next()
    expect(onStep('what')).toBe(true)
    expect(await errorOfField('name')).toBe('Name is required')
    expect(await errorOfField('scan_profile')).toBe('Choose a scan profile.')
    expect(document.activeElement).toBe(inputOf('wizard-name'))
    // Only the activated profiles are offered, each with its purpose.
    expect(byTestId('wizard-profiles')[0].querySelectorAll('.el-radio')).toHaveLength(2)
    expect(text('wizard-profile-full_and_fast')).toContain('Every check, safe checks only')
    expect(writes()).toEqual([])
    expect(t.fake.calls.filter((c) => c.channel === 'drafts.save')).toHaveLength(0)
  })

  it('gives every refused host line its number and reason once, and flags repeated lines', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    expect(onStep('where')).toBe(true)
    await typeLines('wizard-hosts', '192.0.2.1\nnot a host\n\n192.0.2.1\nx;y')
    await next()
    expect(onStep('where')).toBe(true)
    // The field says how many lines are refused; the list says which and why, each once.
    expect(await errorOfField('hosts')).toBe(
      '2 lines cannot be scanned: fix or remove them (the reasons are listed below).',
    )
    const lines = [...theTestId('wizard-host-lines').querySelectorAll('li')].map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    )
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^Line 2 \(not a host\): \S/)
    expect(lines[1]).toBe('Line 4 (192.0.2.1): repeats line 1; left out.')
    expect(lines[2]).toMatch(/^Line 5 \(x;y\): \S/)
    const reason = lines[0]!.replace(/^Line 2 \(not a host\): /, '')
    expect(document.body.textContent!.split(reason)).toHaveLength(2)
    // Refused and repeated lines are not entries: one host is left to scan.
    expect(text('wizard-host-entries')).toBe('1 entry (2 lines refused)')
    expect(document.activeElement).toBe(areaOf('wizard-hosts'))
    expect(apiCalls(t.fake).filter((c) => c.op === 'targets.calculate_hosts')).toHaveLength(0)
    expect(writes()).toEqual([])
  })

  it('walks to Review with a weekly schedule, names account and organization, saves and starts', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.0/28\nscan.example.com\n192.0.2.0/28')
    await typeLines('wizard-exclusions', '192.0.2.5')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(
      apiCalls(t.fake)
        .filter((c) => c.op === 'targets.calculate_hosts')
        .map((c) => c.input),
    ).toEqual([
      { body: { address: '192.0.2.1-192.0.2.4' } },
      { body: { address: '192.0.2.6-192.0.2.14' } },
      { body: { address: 'scan.example.com' } },
    ])
    expect(text('wizard-host-count')).toBe('These entries cover 14 hosts (counted by the service).')
    await next()
    expect(onStep('how')).toBe(true)
    await next()
    expect(onStep('when')).toBe(true)
    await choose('wizard-start-scheduled')
    const start = document.querySelector<HTMLInputElement>('[data-field="start_at"] input')!
    start.value = '2030-03-25 09:00'
    start.dispatchEvent(new Event('input'))
    start.dispatchEvent(new Event('change'))
    await flushPromises()
    await sleep(SCHEDULE_DEBOUNCE_MS + 50)
    await flushPromises()
    const zone = PROFILE_ZONE
    expect(text('schedule-summary')).toBe(`Every Monday at 09:00 ${zone}, from 25 March 2030`)
    expect(text('schedule-next')).toContain('Mon 1 Apr 2030, 09:00 (UTC+02:00)')
    expect(writes()).toEqual([])
    await next()
    expect(onStep('review')).toBe(true)
    await flushPromises()
    expect(text('wizard-review-where')).toBe(
      'The scan will be created in account Account acct-aaaa, organization Acme.',
    )
    expect(text('wizard-review-summary')).toContain(
      '3 new targets, covering 14 hosts: 192.0.2.1-192.0.2.4, 192.0.2.6-192.0.2.14, scan.example.com',
    )
    expect(writes()).toEqual([])
    expect(t.stored['acct-aaaa']).toBeDefined()

    await click('wizard-save-start')
    await vi.waitFor(() => expect(t.router.currentRoute.value.fullPath).toBe('/scans/scn-77'))
    expect(writes().map((c) => c.op)).toEqual(['scans.create_from_wizard', 'scans.start'])
    expect(writes()[0].input).toEqual({
      body: {
        name: 'Weekly perimeter',
        scan_profile: 'full_and_fast',
        new_targets: [
          { address: '192.0.2.1-192.0.2.4' },
          { address: '192.0.2.6-192.0.2.14' },
          { address: 'scan.example.com' },
        ],
        schedule: { frequency: 'weekly', start_at: '2030-03-25T09:00', time_zone: zone },
      },
    })
    expect(writes()[1].input).toEqual({ path: { id: 'scn-77' } })
    expect(t.router.currentRoute.value.fullPath).toBe('/scans/scn-77')
    expect(t.stored['acct-aaaa']).toBeUndefined()
    expect(t.fake.calls.filter((c) => c.channel === 'drafts.delete')).toHaveLength(1)
  })

  it('restores the draft when opened again, and Start over forgets it', async () => {
    serve()
    storeDraft(2, {
      what: { name: 'Restored scan', scan_profile: 'discovery' },
      where: { target_ids: ['tgt-1'], port_list_id: 'pl-1' },
    })
    await mountWizard()
    expect(onStep('how')).toBe(true)
    await click('scan-wizard-back')
    await click('scan-wizard-back')
    expect(inputOf('wizard-name').value).toBe('Restored scan')
    await choose('wizard-profile-full_and_fast')
    await sleep(20)
    await flushPromises()
    expect(t.stored['acct-aaaa'].data).toMatchObject({
      step: 0,
      what: { name: 'Restored scan', scan_profile: 'full_and_fast' },
      where: { target_ids: ['tgt-1'] },
    })
    await click('scan-wizard-start-over')
    await flushPromises()
    expect(t.stored['acct-aaaa']).toBeUndefined()
    expect(inputOf('wizard-name').value).toBe('')
    expect(onStep('what')).toBe(true)
    expect(writes()).toEqual([])
  })

  it('keeps the draft when the service cannot be reached, and says why', async () => {
    serve({
      'scans.create_from_wizard': () =>
        new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    })
    storeDraft(4, {
      what: { name: 'Offline scan' },
      where: { target_ids: ['tgt-1'] },
      how: { cred_ssh: 'crd-1' },
    })
    await mountWizard()
    expect(onStep('review')).toBe(true)
    await click('wizard-save')
    await vi.waitFor(() => expect(shown('wizard-submit-error')).toBe(true))
    expect(writes().map((c) => c.op)).toEqual(['scans.create_from_wizard'])
    expect(writes()[0].input).toEqual({
      body: {
        name: 'Offline scan',
        scan_profile: 'full_and_fast',
        target_ids: ['tgt-1'],
        credential_ids: ['crd-1'],
      },
    })
    expect(text('wizard-submit-error')).toBe('The service cannot be reached.')
    expect(t.stored['acct-aaaa']).toBeDefined()
    expect(t.router.currentRoute.value.fullPath).toBe('/scans/new')
    // with "Work offline" on, saving waits for the service and says so; the draft stays
    t.fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(text('wizard-offline')).toContain('“Work offline” is on')
    expect(theTestId<HTMLButtonElement>('wizard-save').disabled).toBe(true)
    expect(theTestId<HTMLButtonElement>('wizard-save-start').disabled).toBe(true)
  })

  it('on release 5.3.0 offers a profile code and counts hosts on this computer, asking nothing', async () => {
    serve()
    t.fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { release: '5.3.0' })],
      activeId: 'acct-aaaa',
    })
    await flushPromises()
    await mountWizard()
    expect(text('wizard-profiles-unavailable')).toContain('This release cannot list scan profiles.')
    await typeInto('wizard-name', 'Old release scan')
    await typeInto('wizard-profile-code', 'full_and_fast')
    await next()
    expect(onStep('where')).toBe(true)
    await typeLines('wizard-hosts', '192.0.2.0/28\n192.0.2.8-192.0.2.20')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(text('wizard-host-count')).toBe(
      'These entries cover 20 hosts (counted on this computer: this release cannot count hosts).',
    )
    const ops = apiCalls(t.fake).map((c) => c.op)
    expect(ops).not.toContain('scans.scan_profiles')
    expect(ops).not.toContain('targets.calculate_hosts')
    expect(writes()).toEqual([])
  })

  it('imports hosts from a text file, and refuses a file over 1 MiB', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.1')
    const input = theTestId<HTMLInputElement>('wizard-hosts-file')
    const pick = (file: File) => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true })
      input.dispatchEvent(new Event('change'))
    }
    pick(new File(['192.0.2.2\r\nscan.example.com\n'], 'hosts.txt', { type: 'text/plain' }))
    await vi.waitFor(() => expect(areaOf('wizard-hosts').value).toContain('scan.example.com'))
    expect(areaOf('wizard-hosts').value).toBe('192.0.2.1\n192.0.2.2\r\nscan.example.com\n')
    pick(new File(['x'.repeat(MAX_HOST_FILE_BYTES + 1)], 'huge.txt', { type: 'text/plain' }))
    await flushPromises()
    expect(text('wizard-hosts-file-problem')).toBe(
      'huge.txt has 1,048,577 bytes; a host list file can have at most 1,048,576 (1 MiB).',
    )
    expect(areaOf('wizard-hosts').value).not.toContain('xxx')
    expect(writes()).toEqual([])
  })

  it('says how many distinct hosts are scanned when entries overlap', async () => {
    serve()
    await mountWizard()
    await fillWhat()
    await next()
    await typeLines('wizard-hosts', '192.0.2.0/28\n192.0.2.8-192.0.2.20')
    await sleep(HOSTS_DEBOUNCE_MS + 50)
    await flushPromises()
    expect(text('wizard-host-count')).toBe(
      'These entries cover 27 hosts (counted by the service); some entries overlap, so 20 distinct hosts are scanned.',
    )
  })
})

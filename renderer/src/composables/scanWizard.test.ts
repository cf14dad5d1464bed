import { describe, expect, it } from 'vitest'
import { scanWizardBody } from '@contract/catalog/scans'
import { parseHostEntry } from '@contract/hosts'
import {
  MAX_HOST_LIST_LINES,
  blankWizard,
  checkHostList,
  whatStep,
  whenStep,
  whereStep,
  wizardBody,
} from './scanWizard'

const where = (over: Record<string, unknown>) => ({
  ...blankWizard('UTC').where,
  ...over,
})
const messages = (r: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]))

describe('host lists', () => {
  it('checks every line with the catalog’s schema and flags repeats (case-insensitive)', () => {
    const c = checkHostList('Scan.example.com\n\nbad host\nscan.example.com\n192.0.2.7')
    expect(c.lines.map((l) => [l.line, !!l.problem, l.duplicateOf])).toEqual([
      [1, false, undefined],
      [3, true, undefined],
      [4, false, 1],
      [5, false, undefined],
    ])
    expect(c.addresses).toEqual(['Scan.example.com', '192.0.2.7'])
  })

  it('gives the host syntax’s own sentence for 10.0.0.0/0, 999.1.1.1 and a..b', () => {
    const bad = ['10.0.0.0/0', '999.1.1.1', 'a..b']
    const c = checkHostList(bad.join('\n'))
    expect(c.lines.map((l) => l.problem)).toEqual(
      bad.map((b) => {
        const r = parseHostEntry(b)
        return r.ok ? undefined : r.problem
      }),
    )
    expect(c.lines.every((l) => l.problem && l.problem.length > 10)).toBe(true)
    expect(c.addresses).toEqual([])
  })

  it('knows a short range and its full form are the same entry', () => {
    const c = checkHostList('192.0.2.1-5\n192.0.2.1-192.0.2.5')
    expect(c.lines[1].duplicateOf).toBe(1)
    expect(c.addresses).toEqual(['192.0.2.1-5'])
  })

  it('cuts excluded addresses out of blocks and ranges, and says what it did', () => {
    const c = checkHostList(
      '192.0.2.0/29\n198.51.100.10-20\n203.0.113.9\nhost.example',
      '192.0.2.3\n198.51.100.0/28\n203.0.113.9\nHOST.example\n10.9.9.9',
    )
    expect(c.addresses).toEqual([
      '192.0.2.1-192.0.2.2',
      '192.0.2.4-192.0.2.6',
      '198.51.100.16-198.51.100.20',
    ])
    expect(c.lines[0].note).toBe(
      'exclusions applied: scans 192.0.2.1-192.0.2.2, 192.0.2.4-192.0.2.6',
    )
    expect(c.lines[2].note).toBe('left out: every address is excluded')
    expect(c.lines[3].note).toBe('left out: excluded by line 4 of the exclusions')
    expect(c.exclusions[4].note).toBe('excludes none of the hosts listed')
  })

  it('refuses a list too long to check, with one message and no line checked', () => {
    const c = checkHostList(Array.from({ length: 100_000 }, (_, i) => `h${i}.example`).join('\n'))
    expect(c.lines).toEqual([])
    expect(c.problem).toBe(
      `The list has 100,000 lines; at most ${MAX_HOST_LIST_LINES.toLocaleString('en-US')} are checked. Use CIDR blocks or ranges, or split it into several scans.`,
    )
  })
})

describe('the steps’ checks', () => {
  it('step 1 takes the wizard body’s name and profile code', () => {
    expect(
      messages(whatStep.safeParse({ name: ' ', description: '', scan_profile: 'Full!' })),
    ).toEqual({
      name: 'is required',
      scan_profile: 'must be a scan profile code such as full_and_fast',
    })
  })

  it('step 2 counts the refused lines (listed each with its reason), and more than 100 new targets', () => {
    expect(messages(whereStep.safeParse(where({ hosts: '192.0.2.1\nx y' })))).toEqual({
      hosts: 'One line cannot be scanned: fix or remove it (its reason is listed below).',
    })
    expect(
      messages(
        whereStep.safeParse(where({ hosts: 'x y\n192.0.2.1\n999.1.1.1', exclusions: 'a b' })),
      ),
    ).toEqual({
      hosts: '2 lines cannot be scanned: fix or remove them (the reasons are listed below).',
      exclusions: 'One line cannot be scanned: fix or remove it (its reason is listed below).',
    })
    const many = Array.from({ length: 101 }, (_, i) => `h${i}.example`).join('\n')
    expect(messages(whereStep.safeParse(where({ hosts: many }))).hosts).toBe(
      'These hosts make 101 targets; one scan takes at most 100. Use CIDR blocks or ranges, or a saved target.',
    )
    expect(messages(whereStep.safeParse(where({ target_mode: 'saved' })))).toEqual({
      target_ids: 'Choose a saved target.',
    })
    expect(whereStep.safeParse(where({ hosts: '192.0.2.0/24' })).success).toBe(true)
  })

  it('step 4 checks the schedule with scheduleRule only when scheduled', () => {
    const when = {
      start: 'scheduled',
      frequency: 'weekly',
      start_at: '25.3.2030',
      time_zone: 'Mars/Base',
    }
    expect(Object.keys(messages(whenStep.safeParse(when)))).toEqual(['start_at', 'time_zone'])
    expect(whenStep.safeParse({ ...when, start: 'none' }).success).toBe(true)
  })

  it('step 4 says what is missing when the first run or the time zone is empty', () => {
    const when = { start: 'scheduled', frequency: 'weekly', start_at: ' ', time_zone: '' }
    expect(messages(whenStep.safeParse(when))).toEqual({
      start_at: 'Choose the date and time of the first run.',
      time_zone: 'Choose the time zone of the schedule.',
    })
    // A value that is there but wrong keeps the schema's own sentence.
    expect(messages(whenStep.safeParse({ ...when, start_at: '25.3.2030' })).start_at).toBe(
      'must be a date and time such as 2025-03-31T09:00',
    )
  })
})

describe('the wizard body', () => {
  it('is what the catalog accepts: saved targets, a chosen scanner, credentials and a schedule', () => {
    const values = blankWizard('UTC')
    values.what = { name: 'Nightly', description: '  ', scan_profile: 'discovery' }
    values.where = where({ target_mode: 'saved', target_ids: ['tgt-1'], port_list_id: 'pl-1' })
    values.how = {
      scanner_mode: 'chosen',
      scanner_id: 'scr-1',
      cred_ssh: 'crd-1',
      cred_smb: 'crd-1',
      cred_snmp: '',
    }
    values.when = {
      start: 'scheduled',
      frequency: 'daily',
      start_at: '2030-01-01T02:00',
      time_zone: 'UTC',
    }
    const body = wizardBody(values)
    expect(body).toEqual({
      name: 'Nightly',
      scan_profile: 'discovery',
      target_ids: ['tgt-1'],
      port_list_id: 'pl-1',
      scanner_id: 'scr-1',
      credential_ids: ['crd-1'],
      schedule: { frequency: 'daily', start_at: '2030-01-01T02:00', time_zone: 'UTC' },
    })
    expect(scanWizardBody.safeParse(body).success).toBe(true)
  })
})

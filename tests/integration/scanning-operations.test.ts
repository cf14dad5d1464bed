// The remaining operations of targets, scans, schedules, scanners and port lists through the core
// against the real sandbox (issue 8), each in a small life cycle whose every step the next one
// checks: lists filter on the server, deletes are gone afterwards, bulk deletes name what they
// did not find, a scan's details and statistics agree with its vulnerabilities.
import { describe, expect, it } from 'vitest'
import { analystApi, type Attrs, useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst', sandbox: { actionDelayMs: 0 } })

type Row = { id: string; attributes: Attrs }
type Many = { data: Row[]; meta: { pagination: { total_count: number } } }

const { api, apiErr } = analystApi(s)
const ids = (m: Many) => m.data.map((r) => r.id)

describe('targets', () => {
  it('list with a tag filter, delete one and bulk delete others', async () => {
    const a = await api('targets.create', {
      body: { name: 'Op A', address: '192.0.2.201', tags: ['ops-test'] },
    })
    const b = await api('targets.create', {
      body: { name: 'Op B', address: '192.0.2.202', tags: ['ops-test'] },
    })
    const c = await api('targets.create', { body: { name: 'Op C', address: '192.0.2.203' } })
    const tagged = await api<Many>('targets.list', { query: { tag: 'ops-test', sort: 'name' } })
    expect(ids(tagged)).toEqual([a.data.id, b.data.id])

    expect(await api('targets.delete', { path: { id: a.data.id } })).toEqual({
      data: { id: a.data.id, deleted: true },
    })
    expect(await apiErr('targets.show', { path: { id: a.data.id } })).toMatchObject({
      code: 'NOT_FOUND',
    })
    const bulk = await api<{ data: { deleted: string[]; not_found: string[] } }>(
      'targets.bulk_delete',
      { body: { ids: [b.data.id, c.data.id, a.data.id] } },
    )
    expect(bulk.data).toEqual({ deleted: [b.data.id, c.data.id], not_found: [a.data.id] })
    expect((await api<Many>('targets.list', { query: { tag: 'ops-test' } })).data).toEqual([])
  })
})

describe('scans', () => {
  it('run from the wizard with a weekly schedule and show details and statistics', async () => {
    const wizard = await api('scans.create_from_wizard', {
      body: {
        name: 'Weekly web check',
        new_targets: [{ name: 'Web pair', address: '198.51.100.10-11' }],
        scan_profile: 'web_application',
        schedule: { frequency: 'weekly', start_at: '2030-01-07T02:00', time_zone: 'Europe/Paris' },
        start_now: true,
      },
    })
    const id = wizard.data.id
    expect(wizard.data.attributes).toMatchObject({
      status: 'running',
      in_timezone: 'Europe/Paris',
    })
    const target = await api('targets.show', {
      path: { id: (wizard.data.attributes.target_ids as string[])[0] },
    })
    expect(target.data.attributes).toMatchObject({ name: 'Web pair', hosts_count: 2 })
    const schedules = await api<Many>('schedules.list', { query: { search: 'Weekly web check' } })
    expect(schedules.data.map((r) => r.attributes.frequency)).toEqual(['weekly'])
    expect(wizard.data.attributes.schedule_id).toBe(schedules.data[0].id)

    s.sandbox.advanceClock(121_000)
    const vulns = await api<Many>('scans.vulnerabilities', {
      path: { id },
      query: { per_page: 100 },
    })
    const first = vulns.data[0]
    const details = await api('scans.vulnerability_details', {
      path: { id, vulnerability_id: first.id },
    })
    expect(details.data.id).toBe(first.id)
    expect(details.data.attributes).toMatchObject({
      title: first.attributes.title,
      host_ip: first.attributes.host_ip,
    })
    const stats = await api<{ data: Attrs }>('scans.statistics', { path: { id } })
    expect(stats.data).toMatchObject({
      scan_id: id,
      status: 'completed',
      hosts_count: 2,
      vulnerabilities_count: vulns.meta.pagination.total_count,
      duration_seconds: 120,
      runs_count: 1,
    })
    const counts = stats.data.severity_counts as Record<string, number>
    for (const severity of Object.keys(counts)) {
      expect(counts[severity]).toBe(
        vulns.data.filter((v) => v.attributes.severity === severity).length,
      )
    }
  })

  it('list by status, update, delete and bulk delete (refusing running scans)', async () => {
    const target = await api('targets.create', { body: { name: 'T', address: '192.0.2.210' } })
    const make = (name: string) =>
      api('scans.create', {
        body: { name, target_ids: [target.data.id], scan_profile: 'discovery' },
      })
    const one = await make('Ops one')
    const two = await make('Ops two')
    const renamed = await api('scans.update', {
      path: { id: one.data.id },
      body: { name: 'Ops one renamed', scan_profile: 'full_and_fast' },
    })
    expect(renamed.data.attributes).toMatchObject({
      name: 'Ops one renamed',
      scan_profile: 'full_and_fast',
    })
    await api('scans.start', { path: { id: two.data.id } })
    const running = await api<Many>('scans.list', {
      query: { status: 'running', target_id: target.data.id },
    })
    expect(ids(running)).toEqual([two.data.id])
    const changeRunning = await apiErr('scans.update', {
      path: { id: two.data.id },
      body: { scan_profile: 'full_and_fast' },
    })
    expect(changeRunning).toMatchObject({ code: 'CONFLICT', status: 409 })
    const refused = await apiErr('scans.bulk_delete', {
      body: { ids: [one.data.id, two.data.id] },
    })
    expect(refused).toMatchObject({ code: 'CONFLICT' })
    expect(refused.message).toContain(two.data.id)
    expect((await api('scans.show', { path: { id: one.data.id } })).data.id).toBe(one.data.id)

    await api('scans.stop', { path: { id: two.data.id } })
    expect(await api('scans.delete', { path: { id: one.data.id } })).toEqual({
      data: { id: one.data.id, deleted: true },
    })
    const bulk = await api<{ data: { deleted: string[]; not_found: string[] } }>(
      'scans.bulk_delete',
      { body: { ids: [two.data.id, one.data.id] } },
    )
    expect(bulk.data).toEqual({ deleted: [two.data.id], not_found: [one.data.id] })
    expect((await api<Many>('scans.list', { query: { target_id: target.data.id } })).data).toEqual(
      [],
    )
  })

  it('lists the activated scan profiles', async () => {
    const profiles = await api<Many>('scans.scan_profiles')
    const codes = profiles.data.map((p) => p.attributes.code)
    expect(codes).toEqual(
      expect.arrayContaining(['full_and_fast', 'discovery', 'pci_external', 'web_application']),
    )
    expect(profiles.data.every((p) => p.attributes.activated === true)).toBe(true)
  })
})

describe('schedules', () => {
  it('list by frequency, delete one (its scans go back to queued) and bulk delete', async () => {
    const monthly = await api('schedules.create', {
      body: {
        name: 'Ops monthly',
        frequency: 'monthly',
        start_at: '2031-01-31T03:00',
        time_zone: 'UTC',
      },
    })
    const daily = await api('schedules.create', {
      body: {
        name: 'Ops daily',
        frequency: 'daily',
        start_at: '2031-01-01T03:00',
        time_zone: 'UTC',
      },
    })
    const listed = await api<Many>('schedules.list', {
      query: { frequency: 'monthly', search: 'Ops' },
    })
    expect(ids(listed)).toEqual([monthly.data.id])

    const target = await api('targets.create', { body: { name: 'T', address: '192.0.2.211' } })
    const scan = await api('scans.create', {
      body: {
        name: 'Monthly',
        target_ids: [target.data.id],
        scan_profile: 'discovery',
        schedule_id: monthly.data.id,
      },
    })
    expect(scan.data.attributes.status).toBe('scheduled')
    await api('schedules.delete', { path: { id: monthly.data.id } })
    expect((await api('scans.show', { path: { id: scan.data.id } })).data.attributes).toMatchObject(
      { status: 'queued', schedule_id: null, schedule_next_time: null },
    )
    const bulk = await api<{ data: { deleted: string[]; not_found: string[] } }>(
      'schedules.bulk_delete',
      { body: { ids: [daily.data.id, monthly.data.id] } },
    )
    expect(bulk.data).toEqual({ deleted: [daily.data.id], not_found: [monthly.data.id] })
  })
})

describe('scanners', () => {
  it('register, list, change the app type, refuse a move by an analyst, delete', async () => {
    const created = await api('scanners.create', {
      body: { name: 'Ops scanner', host: 'ops-scanner.example', app_type: 'internal_scan' },
    })
    expect(created.data.attributes).toMatchObject({
      activated: false,
      verification_status: 'unverified',
    })
    const internal = await api<Many>('scanners.list', { query: { app_type: 'internal_scan' } })
    expect(ids(internal)).toContain(created.data.id)
    expect(ids(await api<Many>('scanners.activated'))).not.toContain(created.data.id)

    await api('scanners.verify', { path: { id: created.data.id } })
    await api('scanners.activate', { path: { id: created.data.id } })
    expect(ids(await api<Many>('scanners.activated'))).toContain(created.data.id)

    const pci = await api('scanners.update_app_type', {
      path: { id: created.data.id },
      body: { app_type: 'pci_scan' },
    })
    expect(pci.data.attributes.app_type).toBe('pci_scan')
    const moved = await apiErr('scanners.assign_organization', {
      path: { id: created.data.id },
      body: { organization_id: 'org-002' },
    })
    expect(moved).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect((await api('scanners.show', { path: { id: created.data.id } })).data.id).toBe(
      created.data.id,
    )

    await api('scanners.delete', { path: { id: created.data.id } })
    expect(await apiErr('scanners.show', { path: { id: created.data.id } })).toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})

describe('port lists', () => {
  it('list, update, change the app type, deactivate and activate, delete', async () => {
    const created = await api('port_lists.create', {
      body: { name: 'Ops ports', app_type: 'external_scan', ranges: [] },
    })
    const external = await api<Many>('port_lists.list', { query: { app_type: 'external_scan' } })
    expect(ids(external)).toContain(created.data.id)
    const renamed = await api('port_lists.update', {
      path: { id: created.data.id },
      body: { name: 'Ops ports renamed', description: 'for the operations test' },
    })
    expect(renamed.data.attributes).toMatchObject({
      name: 'Ops ports renamed',
      description: 'for the operations test',
    })
    const pci = await api('port_lists.update_app_type', {
      path: { id: created.data.id },
      body: { app_type: 'pci_scan' },
    })
    expect(pci.data.attributes.app_type).toBe('pci_scan')

    expect(ids(await api<Many>('port_lists.activated'))).toContain(created.data.id)
    await api('port_lists.deactivate', { path: { id: created.data.id } })
    expect(ids(await api<Many>('port_lists.activated'))).not.toContain(created.data.id)
    await api('port_lists.activate', { path: { id: created.data.id } })
    expect(ids(await api<Many>('port_lists.activated'))).toContain(created.data.id)

    await api('port_lists.delete', { path: { id: created.data.id } })
    expect(await apiErr('port_lists.show', { path: { id: created.data.id } })).toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})

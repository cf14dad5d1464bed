import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startScanningSandbox, type Resource } from './test-harness'

let sb: RunningSandbox
let admin: string
const get = (path: string) => call(sb, 'GET', path, { token: admin })
const send = (method: string, path: string, body?: unknown) =>
  call(sb, method, path, { token: admin, body })

beforeAll(async () => {
  sb = await startScanningSandbox()
})
afterAll(() => sb?.close())
beforeEach(() => {
  sb.reset()
  admin = sb.sessionFor('admin@sandbox.test')
})

describe('credential secrets', () => {
  it('are accepted on create and update but never appear in any answer', async () => {
    const password = 'Pa55-word-never-shown'
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----never-shown'
    const answers: string[] = []
    const created = await send('POST', '/v2/credentials', {
      name: 'Web servers',
      kind: 'ssh_password',
      username: 'scan',
      password,
    })
    expect(created.status).toBe(201)
    expect(created.json.data.attributes.has_secret).toBe(true)
    const id = created.json.data.id
    answers.push(created.text)
    const updated = await send('PUT', `/v2/credentials/${id}`, {
      kind: 'ssh_key',
      private_key: key,
      passphrase: password,
    })
    expect(updated.status).toBe(200)
    answers.push(updated.text, (await get(`/v2/credentials/${id}`)).text)
    answers.push((await get('/v2/credentials?per_page=100')).text)
    for (const text of answers) {
      expect(text).not.toContain(password)
      expect(text).not.toContain('never-shown')
      expect(text).not.toMatch(/"(password|private_key|passphrase|community)"/)
    }
  })

  it('are required for the kind chosen', async () => {
    const res = await send('POST', '/v2/credentials', { name: 'x', kind: 'ssh_key', username: 'u' })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.json)).toContain('private_key')
  })
})

describe('exceptions', () => {
  it('activate, reset and expire, and the statistics follow', async () => {
    const stats = async () => (await get('/v2/exceptions/statistics')).json.data
    const before = await stats()
    expect((await get('/v2/exceptions/exc-002')).json.data.attributes.state).toBe('pending')

    const active = await send('PUT', '/v2/exceptions/exc-002/activate')
    expect(active.json.data.attributes).toMatchObject({ state: 'active', activated_by: 'usr-001' })
    expect((await stats()).by_state.active).toBe(before.by_state.active + 1)

    const reset = await send('PUT', '/v2/exceptions/exc-002/reset')
    expect(reset.json.data.attributes).toMatchObject({ state: 'pending', activated_at: null })
    expect(await stats()).toEqual(before)

    const expired = await send('PUT', '/v2/exceptions/exc-003/activate')
    expect(expired.status).toBe(409)

    // exc-005 expires in 10 days; moving the clock expires it
    sb.advanceClock(11 * 86_400_000)
    admin = sb.sessionFor('admin@sandbox.test') // the old session expired with the clock
    expect((await get('/v2/exceptions/exc-005')).json.data.attributes.state).toBe('expired')
  })

  it('refuse a second open exception for one vulnerability and a past expiry date', async () => {
    const body = { vulnerability_id: 'vul-002', kind: 'accepted_risk', reason: 'ok' }
    const past = await send('POST', '/v2/exceptions', {
      ...body,
      expires_at: '2001-01-01T00:00:00Z',
    })
    expect(past.status).toBe(422)
    const first = await send('POST', '/v2/exceptions', {
      ...body,
      expires_at: '2099-01-01T00:00:00Z',
    })
    expect(first.status).toBe(201)
    expect(first.json.data.attributes).toMatchObject({ state: 'pending', scan_id: 'scn-001' })
    const second = await send('POST', '/v2/exceptions', {
      ...body,
      expires_at: '2099-01-01T00:00:00Z',
    })
    expect(second.status).toBe(409)
    const details = await get(`/v2/exceptions/${first.json.data.id}/details`)
    expect(details.json.data.attributes.vulnerability.id).toBe('vul-002')
  })
})

describe('vulnerability widgets', () => {
  it('count exactly the rows the vulnerability list returns', async () => {
    const rows: Resource[] = (await get('/v2/vulnerabilities?per_page=500')).json.data
    expect(rows.length).toBeGreaterThan(50)
    const total = (await get('/v2/vulnerabilities/total_widget')).json.data
    expect(total.total).toBe(rows.length)
    for (const sev of ['critical', 'high', 'medium', 'low', 'info']) {
      const listed = (await get(`/v2/vulnerabilities?severity=${sev}&per_page=500`)).json.data
      expect(total[sev], sev).toBe(listed.length)
      expect(total[sev], sev).toBeGreaterThan(0)
    }
    const pci = (await get('/v2/vulnerabilities/pci_compliant_widget')).json.data
    const passing = (await get('/v2/vulnerabilities?pci_compliant=true&per_page=500')).json.data
    expect(pci).toMatchObject({
      pass: passing.length,
      fail: rows.length - passing.length,
      compliant: false,
    })

    const top = (await get('/v2/vulnerabilities/top_widget?limit=5')).json.data
    const scores = rows.map((r) => Number(r.attributes.cvss_score)).sort((a, b) => b - a)
    expect(top.map((r: Resource) => r.attributes.cvss_score)).toEqual(scores.slice(0, 5))

    const scan = (await get('/v2/scans/scn-001')).json.data.attributes
    const ofScan = (await get('/v2/vulnerabilities/total_widget?scan_id=scn-001')).json.data
    expect(ofScan.total).toBe(scan.vulnerabilities_count)
    expect(ofScan).toMatchObject(scan.severity_counts)
  })

  it('answer a prompt from the finding itself and keep the chat history', async () => {
    const vuln = (await get('/v2/vulnerabilities/vul-001')).json.data.attributes
    const res = await send('POST', '/v2/vulnerabilities/vul-001/prompt', {
      question: 'How do I fix it?',
    })
    expect(res.json.data.attributes.answer).toContain(vuln.solution)
    const history = (await get('/v2/vulnerabilities/vul-001/chat_history')).json.data
    expect(history.at(-1).attributes.question).toBe('How do I fix it?')
  })
})

describe('schedules', () => {
  it('compute weekly Berlin dates across the DST change at the same local time', async () => {
    const res = await send('POST', '/v2/schedules/next_schedule_dates', {
      frequency: 'weekly',
      start_at: '2030-03-18T09:00',
      time_zone: 'Europe/Berlin',
      after: '2030-03-20T00:00:00Z',
      count: 3,
    })
    expect(res.status).toBe(200)
    expect(res.json.data.dates).toEqual([
      { at: '2030-03-25T08:00:00.000Z', local: '2030-03-25T09:00:00+01:00' },
      { at: '2030-04-01T07:00:00.000Z', local: '2030-04-01T09:00:00+02:00' },
      { at: '2030-04-08T07:00:00.000Z', local: '2030-04-08T09:00:00+02:00' },
    ])
    const badZone = await send('POST', '/v2/schedules/first_schedule_date', {
      frequency: 'daily',
      start_at: '2030-03-18T09:00',
      time_zone: 'Mars/Olympus',
    })
    expect(badZone.status).toBe(422)
  })

  it('move their scans when the rule changes and release them when deleted', async () => {
    await send('PUT', '/v2/schedules/sch-001', {
      frequency: 'daily',
      start_at: '2030-06-01T05:00',
      time_zone: 'Asia/Tokyo',
    })
    const scan = (await get('/v2/scans/scn-020')).json.data.attributes
    expect(scan).toMatchObject({
      schedule_next_time: '2030-05-31T20:00:00.000Z',
      in_timezone: 'Asia/Tokyo',
    })
    await send('DELETE', '/v2/schedules/sch-001')
    const after = (await get('/v2/scans/scn-020')).json.data.attributes
    expect(after).toMatchObject({ status: 'queued', schedule_id: null, schedule_next_time: null })
  })
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountClient } from '../http/client'
import { auditPeriod, writeAuditEvents } from './audit-events-part'

const NOW = new Date('2030-05-06T07:08:09.000Z')

describe('the period of an SAQ’s audit events', () => {
  it('runs from its creation to its approval, as UTC instants', () => {
    expect(
      auditPeriod(
        { createdAt: '2030-01-02T10:00:00+02:00', approvedAt: '2030-02-03T04:05:06.5Z' },
        NOW,
      ),
    ).toEqual({
      from: '2030-01-02T08:00:00.000Z',
      to: '2030-02-03T04:05:06.500Z',
      ends: 'approval',
    })
  })

  it('ends now when the service gave no approval time', () => {
    expect(auditPeriod({ createdAt: '2030-01-02T00:00:00Z', approvedAt: null }, NOW)).toEqual({
      from: '2030-01-02T00:00:00.000Z',
      to: NOW.toISOString(),
      ends: 'now',
    })
  })

  it('starts at the log’s beginning when the creation time is missing or not a time', () => {
    for (const createdAt of [null, 'soon'])
      expect(auditPeriod({ createdAt, approvedAt: '2030-02-03T00:00:00Z' }, NOW).from).toBeNull()
  })

  it('never starts after it ends (a creation time later than the approval)', () => {
    expect(
      auditPeriod({ createdAt: '2030-03-01T00:00:00Z', approvedAt: '2030-02-01T00:00:00Z' }, NOW),
    ).toEqual({
      from: '2030-02-01T00:00:00.000Z',
      to: '2030-02-01T00:00:00.000Z',
      ends: 'approval',
    })
  })
})

type Event = { id: string; type: string; attributes: Record<string, unknown> }
const event = (id: string, at: string, action: string, resource?: string): Event => ({
  id,
  type: 'audit_event',
  attributes: {
    action,
    resource_type: resource ? 'saq' : null,
    resource_id: resource ?? null,
    occurred_at: at,
  },
})

/** A stand-in for the service's audit log: `from`/`to` bounds, oldest first, pages. */
function logClient(events: Event[]) {
  const asked: Record<string, unknown>[] = []
  const client = {
    call: async (op: string, input: { query: Record<string, string | number> }) => {
      expect(op).toBe('audit.list')
      const q = input.query
      asked.push(q)
      const from = q.from ? Date.parse(String(q.from)) : -Infinity
      const to = q.to ? Date.parse(String(q.to)) : Infinity
      const inside = events
        .filter((e) => {
          const at = Date.parse(String(e.attributes.occurred_at))
          return at >= from && at <= to
        })
        .sort((a, b) =>
          String(a.attributes.occurred_at).localeCompare(String(b.attributes.occurred_at)),
        )
      const per = Number(q.per_page)
      const page = Number(q.page)
      return {
        data: inside.slice((page - 1) * per, page * per),
        meta: { pagination: { total_count: inside.length } },
      }
    },
  }
  return { client: client as unknown as AccountClient, asked }
}

const SAQ = {
  id: 'saq-9',
  name: 'Checkout 2030',
  createdAt: '2030-01-01T00:00:00.000Z',
  approvedAt: '2030-01-10T12:00:00.000Z',
}

describe('the audit events of an SAQ’s period', () => {
  let folder: string
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-audit-part-'))
  })
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }))

  it('hold the SAQ’s own approval, stamped a moment after its approval time, and nothing later', async () => {
    const { client } = logClient([
      event('aud-1', '2030-01-01T00:00:00.000Z', 'saq.create', 'saq-9'),
      event('aud-2', '2030-01-05T08:00:00.000Z', 'scan.start'),
      event('aud-3', '2030-01-10T12:00:00.002Z', 'saq.approve', 'saq-9'),
      event('aud-4', '2030-01-10T12:00:30.000Z', 'saq.approve', 'saq-8'),
      event('aud-5', '2030-01-10T12:01:00.000Z', 'scan.start'),
    ])
    const part = await writeAuditEvents(client, folder, SAQ, NOW)
    const lines = fs.readFileSync(part.file!, 'utf8').trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as Event).id)).toEqual(['aud-1', 'aud-2', 'aud-3'])
    expect(part).toMatchObject({
      events: 3,
      approvalEvent: 'aud-3',
      note: null,
      period: { to: '2030-01-10T12:00:00.002Z', ends: 'approval' },
    })
  })

  it('end at the approval time, and say so, when the log holds no approval of the SAQ', async () => {
    const { client } = logClient([
      event('aud-1', '2030-01-01T00:00:00.000Z', 'saq.create', 'saq-9'),
      event('aud-5', '2030-01-10T12:01:00.000Z', 'scan.start'),
    ])
    const part = await writeAuditEvents(client, folder, SAQ, NOW)
    expect(part).toMatchObject({ events: 1, approvalEvent: null })
    expect(part.period.to).toBe(SAQ.approvedAt)
    expect(part.note).toContain("no event recording this SAQ's approval")
  })

  it('write no empty file: a period before the log begins says so', async () => {
    const { client } = logClient([event('aud-1', '2030-03-01T00:00:00.000Z', 'scan.start')])
    const part = await writeAuditEvents(client, folder, SAQ, NOW)
    expect(part).toMatchObject({ file: null, sha256: null, events: 0 })
    expect(fs.readdirSync(folder)).toEqual([])
    expect(part.note).toContain(
      'begins on 2030-03-01 (its oldest event, aud-1), after this period ended',
    )
  })

  it('write no empty file: a log with nothing in the period says so', async () => {
    const { client } = logClient([event('aud-1', '2029-12-01T00:00:00.000Z', 'scan.start')])
    const part = await writeAuditEvents(client, folder, SAQ, NOW)
    expect(part.file).toBeNull()
    expect(part.note).toContain('holds no event in this period')
  })
})

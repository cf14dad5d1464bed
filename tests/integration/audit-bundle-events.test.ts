// An audit bundle with the audit events of the questionnaire's period, against the sandbox over
// HTTP: an SAQ cloned, then (a minute later on the sandbox's clock) another action, then approved;
// the bundle's audit-events.jsonl holds exactly the events from its creation to its approval (the
// pages read one by one), listed in the manifest and in SHA256SUMS, which `sha256sum -c` accepts.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { AuditBundle } from '@contract/files'
import { analystAccount, signedIn, startTestCore, type TestCore } from './core-helpers'
import { recordingHost, tempFolder } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

// The administrator: the analyst may neither read the audit log nor approve an SAQ.
const s = useSandboxAndCore({ each: 'none' })
let t: TestCore
let account: AccountView
let folder: string

beforeEach(async () => {
  s.sandbox.reset()
  folder = tempFolder('scandesk-audit-bundle-')
  t = await startTestCore({ host: recordingHost() })
  const admin = analystAccount(
    { baseUrl: s.sandbox.baseUrl, apiKey: s.sandbox.apiKey },
    { label: 'Sandbox admin', username: 'demo@sandbox.test' },
  )
  account = signedIn(await t.ok('accounts.add', admin))
  await t.ok('files.setFolder', { accountId: account.id, folder })
})
afterEach(async () => {
  await t?.close()
  fs.rmSync(folder, { recursive: true, force: true })
})

type Row = { id: string; type: string; attributes: Record<string, unknown> }

async function call(op: string, input: object): Promise<unknown> {
  const out = await t.ok<ApiCallOutput>('api.call', { accountId: account.id, op, input })
  return out.data
}

async function approvedSaqs(): Promise<Row[]> {
  const out = (await call('saq.list', { query: { status: 'approved', per_page: 50 } })) as {
    data: Row[]
  }
  return out.data
}

async function clone(id: string, name: string): Promise<Row> {
  return ((await call('saq.clone', { path: { id }, body: { name } })) as { data: Row }).data
}

/** The audit log of a period, read one page of 20 at a time. */
async function auditOf(from: string, to: string): Promise<Row[]> {
  const all: Row[] = []
  for (let page = 1; ; page++) {
    const query = { from, to, sort: 'occurred_at', page, per_page: 20 }
    const data = ((await call('audit.list', { query })) as { data: Row[] }).data
    all.push(...data)
    if (data.length < 20) return all
  }
}

describe('the audit bundle with the audit events of the questionnaire’s period', () => {
  it('holds the events from the SAQ’s creation to its approval, hashed and in the manifest', async () => {
    const [source, other] = await approvedSaqs()
    const saq = await clone(source.id, 'Revision with audit trail')
    s.sandbox.advanceClock(60_000)
    const inside = await clone(other.id, 'Made while the revision was open')
    s.sandbox.advanceClock(60_000)
    const approved = (
      (await call('saq.approve', {
        path: { id: saq.id },
        body: {
          attestation: { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2025-03-01' },
        },
      })) as { data: Row }
    ).data
    s.sandbox.advanceClock(60_000)
    const after = await clone(other.id, 'Made after the approval')

    const from = String(approved.attributes.created_at)
    // The approval's own event is stamped by the service as it records it, at or just after the
    // SAQ's approved_at: the period ends at that event (issue 36).
    const approval = (await auditOf(from, new Date(Date.parse(from) + 600_000).toISOString())).find(
      (e) => e.attributes.action === 'saq.approve' && e.attributes.resource_id === saq.id,
    )!
    expect(Date.parse(String(approval.attributes.occurred_at))).toBeGreaterThanOrEqual(
      Date.parse(String(approved.attributes.approved_at)),
    )
    const to = String(approval.attributes.occurred_at)
    const expected = await auditOf(from, to)
    const resources = expected.map((e) => e.attributes.resource_id)
    expect(resources).toEqual(expect.arrayContaining([saq.id, inside.id]))
    expect(resources).not.toContain(after.id)
    expect(expected.map((e) => e.id)).toContain(approval.id)

    const bundle = await t.ok<AuditBundle>('saq.auditBundle', {
      accountId: account.id,
      saqIds: [saq.id],
      auditEvents: true,
    })
    const part = bundle.files.find((f) => f.kind === 'audit_events')!
    expect(part).toMatchObject({ saqId: saq.id, attachedAt: null, afterApproval: null })
    expect(path.basename(part.path)).toBe('audit-events.jsonl')
    const lines = fs.readFileSync(path.join(bundle.folder, part.path), 'utf8').split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(expected)

    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    const entry = manifest.saqs[0]
    expect(entry.audit_events).toEqual({
      path: part.path,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      ends: 'approval',
      events: expected.length,
      approval_event: approval.id,
      note: null,
    })
    expect(bundle.auditEvents).toEqual([
      expect.objectContaining({ saqId: saq.id, path: part.path, approvalEvent: approval.id }),
    ])
    expect(entry.files).toContainEqual(
      expect.objectContaining({ path: part.path, kind: 'audit_events', sha256: part.sha256 }),
    )
    const sums = fs.readFileSync(path.join(bundle.folder, 'SHA256SUMS'), 'utf8')
    expect(sums).toContain(`${part.sha256}  ${part.path}\n`)
    const out = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
      cwd: bundle.folder,
      encoding: 'utf8',
    })
    expect(out).toContain(`${part.path}: OK`)
  })

  it('writes no empty file for a period the log no longer holds, and says why', async () => {
    // The seeded approved SAQs were approved most of a year ago; the log holds the last 30 days.
    const old = (await approvedSaqs()).find(
      (r) => Date.parse(String(r.attributes.approved_at)) < Date.now() - 200 * 86_400_000,
    )!
    const bundle = await t.ok<AuditBundle>('saq.auditBundle', {
      accountId: account.id,
      saqIds: [old.id],
      auditEvents: true,
    })
    expect(bundle.files.map((f) => f.kind)).toEqual(['saq'])
    const sub = fs.readdirSync(bundle.folder).find((n) => n.startsWith(old.id))!
    expect(fs.readdirSync(path.join(bundle.folder, sub))).not.toContain('audit-events.jsonl')
    const [events] = bundle.auditEvents!
    expect(events).toMatchObject({ saqId: old.id, path: null, events: 0 })
    expect(events.note).toMatch(/audit log begins on \d{4}-\d{2}-\d{2} .*after this period ended/)
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest.saqs[0].audit_events).toMatchObject({
      path: null,
      events: 0,
      note: events.note,
    })
  })

  it('leaves the audit events out unless asked', async () => {
    const [saq] = await approvedSaqs()
    const bundle = await t.ok<AuditBundle>('saq.auditBundle', {
      accountId: account.id,
      saqIds: [saq.id],
    })
    expect(bundle.files.map((f) => f.kind)).toEqual(['saq'])
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest.saqs[0]).not.toHaveProperty('audit_events')
  })
})

// SAQ files against the real sandbox over HTTP, a real SQLite ledger and real files: the SAQ's PDF
// through the export jobs, evidence attached / listed / removed / re-linked, and audit bundles
// whose SHA256SUMS the real `sha256sum -c` accepts.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import type { AuditBundle, ExportJob, LedgerEntry } from '@contract/files'
import { partialName } from '../../electron/core/files/names'
import { auditBuildingName } from '../../electron/core/files/names'
import { filesIn, ledgerOf, tempFolder, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'exports' })

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

type SaqRow = { id: string; attributes: Record<string, unknown> }

async function saqs(status: 'approved' | 'draft'): Promise<SaqRow[]> {
  const out = await s.t.ok<ApiCallOutput>('api.call', {
    accountId: s.account.id,
    op: 'saq.list',
    input: { query: { status, per_page: 50 } },
  })
  return (out.data as { data: SaqRow[] }).data
}

async function downloadSaq(id: string): Promise<ExportJob> {
  const job = await s.t.ok<ExportJob>('exports.generate', {
    accountId: s.account.id,
    kind: 'saq',
    resourceId: id,
    format: 'pdf',
  })
  expect(job.state).toBe('ready')
  await s.t.ok<ExportJob>('exports.download', { jobId: job.id })
  return waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
}

function evidenceSource(name: string, text: string): string {
  const dir = tempFolder('scandesk-evidence-src-')
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

async function attach(saqKey: string, file: string, requirement = '8.3.1'): Promise<LedgerEntry> {
  return s.t.ok<LedgerEntry>('saq.evidence.attach', {
    accountId: s.account.id,
    saqKey,
    saqName: 'Web shop SAQ',
    saqType: 'A',
    requirement,
    path: file,
  })
}

describe('an SAQ’s PDF through the export jobs', () => {
  it('lands under SAQ/ with our name, starts with %PDF- and is recorded, then re-verifies offline', async () => {
    const [saq] = await saqs('approved')
    expect(saq).toBeDefined()
    const done = await downloadSaq(saq.id)
    expect(done.state).toBe('verified')
    expect(done.resourceName).toBe(saq.attributes.name)
    expect(path.dirname(done.path!)).toBe(path.join(s.folder, 'SAQ'))
    const today = new Date().toISOString().slice(0, 10)
    const org = saq.attributes.organization_name
    expect(path.basename(done.path!)).toBe(
      `SAQ ${String(saq.attributes.saq_type)} - ${String(saq.attributes.name)}${org ? ` - ${String(org)}` : ''} - ${today}.pdf`,
    )
    expect(fs.readFileSync(done.path!).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(sha256(done.path!)).toBe(done.sha256)

    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({
      kind: 'saq',
      format: 'pdf',
      resourceId: saq.id,
      verdict: 'recorded',
      path: done.path,
      sha256: done.sha256,
      saq: { saqType: saq.attributes.saq_type, status: 'approved', requirement: null },
    })
    expect(entry.detail).toMatch(/recorded at download.*no check for SAQ files/)
    // saq.show twice (the JSON for the job's name, then the PDF), and nothing else about it.
    const shown = s.sandbox.requests.filter((r) => r.includes(`/v2/saq/${saq.id} `))
    expect(shown.map((r) => r.split(' →')[0])).toEqual([
      `GET /v2/saq/${saq.id}`,
      `GET /v2/saq/${saq.id}`,
    ])
    const before = s.sandbox.requests.length

    const again = await s.t.ok<LedgerEntry>('library.reverify', {
      entryId: entry.id,
      mode: 'offline',
    })
    expect(again.verdict).toBe('recorded')
    expect(again.detail).toMatch(/Unchanged since it was downloaded/)
    const online = await s.t.ok<LedgerEntry>('library.reverify', {
      entryId: entry.id,
      mode: 'online',
    })
    expect(online.verdict).toBe('recorded')
    expect(online.detail).toMatch(/offers no check for SAQ files/)
    expect(s.sandbox.requests.length).toBe(before)

    fs.appendFileSync(done.path!, 'tampered')
    const changed = await s.t.ok<LedgerEntry>('library.reverify', {
      entryId: entry.id,
      mode: 'offline',
    })
    expect(changed.verdict).toBe('changed')

    // "Verify a file…" with kind saq compares with the recorded download.
    const copy = path.join(tempFolder(), 'emailed.pdf')
    fs.writeFileSync(copy, fs.readFileSync(done.path!).subarray(0, -'tampered'.length))
    const check = await s.t.ok<{ match: boolean; message: string }>('library.verifyFile', {
      accountId: s.account.id,
      kind: 'saq',
      resourceId: saq.id,
      format: 'pdf',
      path: copy,
    })
    expect(check.match).toBe(true)
    expect(check.message).toMatch(/exactly the PDF of/)
  })

  it('refuses a CSV of an SAQ', async () => {
    const [saq] = await saqs('approved')
    const err = await s.t.err('exports.generate', {
      accountId: s.account.id,
      kind: 'saq',
      resourceId: saq.id,
      format: 'csv',
    })
    expect(err.code).toBe('VALIDATION')
  })

  it('does not write through a link planted where the SAQ folder goes', async () => {
    const [saq] = await saqs('approved')
    const elsewhere = tempFolder('scandesk-elsewhere-')
    fs.symlinkSync(elsewhere, path.join(s.folder, 'SAQ'))
    const job = await s.t.ok<ExportJob>('exports.generate', {
      accountId: s.account.id,
      kind: 'saq',
      resourceId: saq.id,
      format: 'pdf',
    })
    const err = await s.t.err('exports.download', { jobId: job.id })
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/symbolic link/)
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })
})

describe('SAQ evidence', () => {
  it('attaches a copy under SAQ/Evidence, lists, links a draft key to the SAQ id and removes only the copy', async () => {
    const original = evidenceSource('firewall rules.conf', 'deny all\n')
    const entry = await attach('draft-42', original)
    expect(entry).toMatchObject({
      kind: 'saq_evidence',
      format: 'file',
      verdict: 'recorded',
      resourceId: 'draft-42',
      sha256: sha256(original),
      size: 9,
      saq: { saqType: 'A', status: 'draft', requirement: '8.3.1' },
    })
    expect(entry.path).toBe(
      path.join(s.folder, 'SAQ', 'Evidence', 'draft-42', '8.3.1', 'firewall rules.conf'),
    )
    expect(fs.readFileSync(entry.path, 'utf8')).toBe('deny all\n')
    // The same name again is not overwritten.
    const second = await attach('draft-42', original)
    expect(path.basename(second.path)).toBe('firewall rules (2).conf')

    const listed = await s.t.ok<LedgerEntry[]>('saq.evidence.list', {
      accountId: s.account.id,
      saqKey: 'draft-42',
    })
    expect(listed.map((e) => e.id)).toEqual([entry.id, second.id])

    const linked = await s.t.ok<{ linked: number }>('saq.evidence.link', {
      accountId: s.account.id,
      draftKey: 'draft-42',
      saqId: 'saq-900',
    })
    expect(linked).toEqual({ linked: 2 })
    const moved = await s.t.ok<LedgerEntry[]>('saq.evidence.list', {
      accountId: s.account.id,
      saqKey: 'saq-900',
    })
    expect(moved.map((e) => e.path)).toEqual([entry.path, second.path])
    expect(fs.existsSync(entry.path)).toBe(true)

    // Open: a .conf is a safe text type; an executable-looking file is not opened (reveal is).
    await s.t.ok('library.open', { entryId: entry.id })
    expect(s.host.opened).toEqual([entry.path])
    const script = await attach('saq-900', evidenceSource('collect.sh', 'echo hi\n'), '1.2.1')
    expect((await s.t.err('library.open', { entryId: script.id })).code).toBe('FORBIDDEN')
    await s.t.ok('library.reveal', { entryId: script.id })
    expect(s.host.revealed).toEqual([script.path])

    expect(await s.t.ok('saq.evidence.remove', { entryId: entry.id })).toEqual({ removed: true })
    expect(fs.existsSync(entry.path)).toBe(false)
    expect(fs.readFileSync(original, 'utf8')).toBe('deny all\n')
    const left = await s.t.ok<LedgerEntry[]>('saq.evidence.list', {
      accountId: s.account.id,
      saqKey: 'saq-900',
    })
    expect(left.map((e) => e.id)).toEqual([second.id, script.id])
    expect(s.t.events.some((e) => e.name === 'library.changed')).toBe(true)
  })

  it('refuses a symbolic link, a folder and a relative path as the source', async () => {
    const original = evidenceSource('a.txt', 'x')
    const link = path.join(path.dirname(original), 'link.txt')
    fs.symlinkSync(original, link)
    expect((await s.t.err('saq.evidence.attach', evidenceInput(link))).code).toBe('VALIDATION')
    expect((await s.t.err('saq.evidence.attach', evidenceInput(path.dirname(original)))).code).toBe(
      'VALIDATION',
    )
    expect((await s.t.err('saq.evidence.attach', evidenceInput('a.txt'))).code).toBe('VALIDATION')
    expect(fs.existsSync(path.join(s.folder, 'SAQ', 'Evidence'))).toBe(false)
  })
})

function evidenceInput(file: string) {
  return {
    accountId: s.account.id,
    saqKey: 'saq-1',
    saqName: 'Shop',
    saqType: 'A',
    requirement: '8.3.1',
    path: file,
  }
}

describe('audit bundles', () => {
  it('bundles two approved SAQs with their evidence; SHA256SUMS passes sha256sum -c', async () => {
    const approved = (await saqs('approved')).slice(0, 2)
    expect(approved).toHaveLength(2)
    const ev = await attach(approved[0].id, evidenceSource('policy.pdf', '%PDF-1.4 policy\n'))
    const bundle = await s.t.ok<AuditBundle>('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: approved.map((a) => a.id),
    })
    expect(path.dirname(bundle.folder)).toBe(path.join(s.folder, 'SAQ'))
    expect(path.basename(bundle.folder)).toMatch(/^Audit \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/)
    expect(bundle.files.map((f) => f.kind).sort()).toEqual(['saq', 'saq', 'saq_evidence'])
    const evidence = bundle.files.find((f) => f.kind === 'saq_evidence')!
    expect(evidence.sha256).toBe(ev.sha256)
    expect(evidence.saqId).toBe(approved[0].id)

    const out = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
      cwd: bundle.folder,
      encoding: 'utf8',
    })
    expect(out.trim().split('\n')).toHaveLength(4) // two PDFs, one evidence file, the manifest
    expect(out).not.toMatch(/FAILED/)

    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest.account).toBe('Sandbox analyst')
    expect(manifest.saqs.map((x: { id: string }) => x.id)).toEqual(approved.map((a) => a.id))
    expect(manifest.saqs[0]).toMatchObject({
      status: 'approved',
      type: approved[0].attributes.saq_type,
      compliance: approved[0].attributes.compliance,
    })
    expect(manifest.saqs[0].files.map((f: { kind: string }) => f.kind)).toEqual([
      'saq',
      'saq_evidence',
    ])
    for (const f of bundle.files) {
      const file = path.join(bundle.folder, f.path)
      expect(sha256(file)).toBe(f.sha256)
      if (f.kind === 'saq') expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
    }
    const recorded = (await ledgerOf(s.t, s.account.id)).filter((e) => e.kind === 'saq')
    expect(recorded.map((e) => e.verdict)).toEqual(['recorded', 'recorded'])
    expect(recorded.every((e) => e.path.startsWith(bundle.folder))).toBe(true)
  })

  it('refuses a draft SAQ before writing anything', async () => {
    const [approved] = await saqs('approved')
    const [draft] = await saqs('draft')
    const err = await s.t.err('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: [approved.id, draft.id],
    })
    expect(err.code).toBe('VALIDATION')
    expect(err.message).toContain(String(draft.attributes.name))
    expect(filesIn(s.folder)).toEqual([])
    expect(fs.existsSync(path.join(s.folder, 'SAQ'))).toBe(false)
  })

  it('fails with INTEGRITY_FAILED naming an evidence file that changed, leaving no bundle', async () => {
    const [approved] = await saqs('approved')
    const ev = await attach(approved.id, evidenceSource('scan.txt', 'clean\n'))
    fs.writeFileSync(ev.path, 'edited\n')
    const err = await s.t.err('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: [approved.id],
    })
    expect(err.code).toBe('INTEGRITY_FAILED')
    expect(err.message).toContain('scan.txt')
    const saqDir = path.join(s.folder, 'SAQ')
    expect(fs.readdirSync(saqDir).filter((n) => n.startsWith('Audit'))).toEqual([])
    expect((await ledgerOf(s.t, s.account.id)).filter((e) => e.kind === 'saq')).toEqual([])
  })

  it('leaves nothing that looks finished after a crash: the next start removes the unfinished bundle', async () => {
    const [approved] = await saqs('approved')
    const ev = await attach(approved.id, evidenceSource('policy.txt', 'policy\n'))
    const bundle = await s.t.ok<AuditBundle>('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: [approved.id],
    })
    // what a kill in the middle of the next bundle, and of an evidence copy, leaves behind
    const saqDir = path.join(s.folder, 'SAQ')
    const unfinished = path.join(saqDir, auditBuildingName(new Date()))
    fs.mkdirSync(path.join(unfinished, `${approved.id} - half`), { recursive: true })
    fs.writeFileSync(path.join(unfinished, `${approved.id} - half`, 'SAQ.pdf'), '%PDF-1.4 half')
    const halfCopy = path.join(path.dirname(ev.path), partialName('scan.txt'))
    fs.writeFileSync(halfCopy, 'half')
    expect(fs.readdirSync(saqDir).filter((n) => n.includes('Audit'))).toHaveLength(2)

    await s.t.close()
    await s.reopen()
    expect(fs.readdirSync(saqDir).sort()).toEqual([path.basename(bundle.folder), 'Evidence'])
    expect(fs.readdirSync(path.dirname(ev.path))).toEqual([path.basename(ev.path)])
    // the finished bundle is whole: sha256sum -c still passes
    const out = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
      cwd: bundle.folder,
      encoding: 'utf8',
    })
    expect(out).not.toMatch(/FAILED/)
  })

  it('flags in the manifest evidence attached after the SAQ was approved', async () => {
    const [approved] = await saqs('approved')
    expect(approved.attributes.approved_at).toBeTruthy()
    await attach(approved.id, evidenceSource('late.txt', 'late\n'))
    const bundle = await s.t.ok<AuditBundle>('saq.auditBundle', {
      accountId: s.account.id,
      saqIds: [approved.id],
    })
    const late = bundle.files.find((f) => f.kind === 'saq_evidence')!
    expect(late.afterApproval).toBe(true)
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest.saqs[0].evidence_added_after_approval).toBe(1)
    expect(manifest.saqs[0].files[1]).toMatchObject({
      kind: 'saq_evidence',
      attached_at: late.attachedAt,
      linked_at: null,
      added_after_approval: true,
    })
  })
})

// Audit bundles (buildAuditBundle through SaqFiles): what goes in, the manifest's times and
// late-evidence flags, the temporary building folder and the refusals.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  appError,
  approvedAt,
  calls,
  digest,
  downloadedInto,
  folder,
  ledger,
  request,
  saq,
  setClock,
  source,
  statuses,
  useSaqFilesWorld,
} from './test-saq-files'

useSaqFilesWorld()

describe('audit bundles', () => {
  it('refuses SAQs that are not approved, naming them, before writing anything', async () => {
    statuses['saq-2'] = 'draft'
    const err = await appError(saq.auditBundle('acc-1', ['saq-1', 'saq-2']))
    expect(err.code).toBe('VALIDATION')
    expect(err.message).toContain('“SAQ saq-2” (saq-2, draft)')
    expect(err.message).not.toContain('saq-1')
    expect(fs.readdirSync(folder)).toEqual([])
    expect(calls.filter((c) => c.startsWith('download'))).toEqual([])
  })

  it('writes each SAQ’s PDF and evidence, the manifest and SHA256SUMS, and records the PDFs', async () => {
    setClock('2025-01-20T08:00:00Z') // before the approval (2025-02-01)
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('policy.txt', 'policy') }),
      'browser',
    ))!
    setClock('2025-03-04T05:06:07Z')
    const bundle = await saq.auditBundle('acc-1', ['saq-1', 'saq-2', 'saq-1'])
    expect(bundle.folder).toBe(path.join(folder, 'SAQ', 'Audit 2025-03-04 05-06-07'))
    expect(calls.filter((c) => c.startsWith('download'))).toEqual([
      'download saq.show saq-1 pdf',
      'download saq.show saq-2 pdf',
    ])
    expect(bundle.files).toEqual([
      {
        path: 'saq-1 - SAQ saq-1/SAQ A - SAQ saq-1 - Acme Retail - 2025-03-04.pdf',
        size: 14,
        sha256: digest('%PDF-1.7 saq-1'),
        saqId: 'saq-1',
        kind: 'saq',
        attachedAt: null,
        afterApproval: null,
      },
      {
        path: 'saq-1 - SAQ saq-1/Evidence/8.3.1/policy.txt',
        size: 6,
        sha256: ev.sha256,
        saqId: 'saq-1',
        kind: 'saq_evidence',
        attachedAt: '2025-01-20T08:00:00.000Z',
        afterApproval: false,
      },
      {
        path: 'saq-2 - SAQ saq-2/SAQ A - SAQ saq-2 - Acme Retail - 2025-03-04.pdf',
        size: 14,
        sha256: digest('%PDF-1.7 saq-2'),
        saqId: 'saq-2',
        kind: 'saq',
        attachedAt: null,
        afterApproval: null,
      },
    ])
    const sums = fs.readFileSync(path.join(bundle.folder, 'SHA256SUMS'), 'utf8').split('\n')
    expect(sums.slice(0, 3)).toEqual(bundle.files.map((f) => `${f.sha256}  ${f.path}`))
    expect(sums[3]).toBe(`${digest(fs.readFileSync(bundle.manifest))}  manifest.json`)
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest).toMatchObject({
      format: 'scandesk-audit-bundle/2',
      account: 'Acme',
      created_at: '2025-03-04T05:06:07.000Z',
      saqs: [
        {
          id: 'saq-1',
          name: 'SAQ saq-1',
          type: 'A',
          status: 'approved',
          compliance: 'compliant',
          approved_at: '2025-02-01T00:00:00Z',
          evidence_added_after_approval: 0,
          files: [
            { kind: 'saq', requirement: null, attached_at: null, added_after_approval: null },
            {
              kind: 'saq_evidence',
              requirement: '8.3.1',
              size: 6,
              sha256: ev.sha256,
              attached_at: '2025-01-20T08:00:00.000Z',
              linked_at: null,
              added_after_approval: false,
            },
          ],
        },
        { id: 'saq-2', evidence_added_after_approval: 0 },
      ],
    })
    const recorded = ledger.list().filter((e) => e.kind === 'saq')
    expect(recorded.map((e) => [e.resourceId, e.verdict])).toEqual(
      expect.arrayContaining([
        ['saq-1', 'recorded'],
        ['saq-2', 'recorded'],
      ]),
    )
    // A second bundle in the same second gets a folder of its own.
    const second = await saq.auditBundle('acc-1', ['saq-2'])
    expect(path.basename(second.folder)).toBe('Audit 2025-03-04 05-06-07 (2)')
  })

  it('records when each evidence file was attached or re-pointed and flags what came after approval', async () => {
    const attachAt = async (when: string, over: object) => {
      setClock(when)
      return (await saq.attach(request(over), 'browser'))!
    }
    // approved 2025-02-01: on time, attached late, and a draft's file re-pointed late
    const onTime = await attachAt('2025-01-10T00:00:00Z', {
      saqKey: 'draft-1',
      path: source('on-time.txt', 'a'),
    })
    setClock('2025-01-12T00:00:00Z')
    saq.link('acc-1', 'draft-1', 'saq-1')
    const late = await attachAt('2025-02-10T00:00:00Z', {
      saqKey: 'saq-1',
      path: source('late.txt', 'b'),
    })
    const moved = await attachAt('2025-01-15T00:00:00Z', {
      saqKey: 'draft-2',
      path: source('moved.txt', 'c'),
    })
    setClock('2025-02-20T00:00:00Z')
    saq.link('acc-1', 'draft-2', 'saq-1')
    // an SAQ without an approval time: nothing to compare with
    approvedAt['saq-3'] = null
    const unknown = await attachAt('2025-02-21T00:00:00Z', {
      saqKey: 'saq-3',
      path: source('unknown.txt', 'd'),
    })
    setClock('2025-03-04T05:06:07Z')

    const bundle = await saq.auditBundle('acc-1', ['saq-1', 'saq-3'])
    const flags = bundle.files
      .filter((f) => f.kind === 'saq_evidence')
      .map((f) => [path.basename(f.path), f.attachedAt, f.afterApproval])
    expect(flags).toEqual([
      ['on-time.txt', onTime.downloadedAt, false],
      ['moved.txt', moved.downloadedAt, true],
      ['late.txt', late.downloadedAt, true],
      ['unknown.txt', unknown.downloadedAt, null],
    ])
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest.saqs[0].evidence_added_after_approval).toBe(2)
    const byName = Object.fromEntries(
      manifest.saqs
        .flatMap((x: { files: { path: string }[] }) => x.files)
        .map((f: { path: string }) => [path.basename(f.path), f]),
    )
    expect(byName['on-time.txt']).toMatchObject({
      attached_at: '2025-01-10T00:00:00.000Z',
      linked_at: '2025-01-12T00:00:00.000Z',
      added_after_approval: false,
    })
    expect(byName['moved.txt']).toMatchObject({
      attached_at: '2025-01-15T00:00:00.000Z',
      linked_at: '2025-02-20T00:00:00.000Z',
      added_after_approval: true,
    })
    expect(byName['late.txt']).toMatchObject({
      attached_at: '2025-02-10T00:00:00.000Z',
      linked_at: null,
      added_after_approval: true,
    })
    expect(byName['unknown.txt']).toMatchObject({ added_after_approval: null })
    expect(manifest.saqs[1]).toMatchObject({ approved_at: null, evidence_added_after_approval: 0 })
  })

  it('builds under a hidden temporary name and renames it to “Audit …” only when complete', async () => {
    const bundle = await saq.auditBundle('acc-1', ['saq-1', 'saq-2'])
    // while the PDFs downloaded, no “Audit …” folder existed: only the temporary one
    expect(downloadedInto).toHaveLength(2)
    for (const { folder: inside, finalExists } of downloadedInto) {
      expect(inside.split(path.sep)[0]).toMatch(
        /^\.Audit 2025-03-04 05-06-07\.[0-9a-f]{12}\.building$/,
      )
      expect(finalExists).toBe(false)
    }
    expect(fs.readdirSync(path.join(folder, 'SAQ'))).toEqual(['Audit 2025-03-04 05-06-07'])
    expect(fs.readdirSync(bundle.folder).sort()).toEqual([
      'SHA256SUMS',
      'manifest.json',
      'saq-1 - SAQ saq-1',
      'saq-2 - SAQ saq-2',
    ])
    // the PDFs are recorded where they ended up, not under the temporary name
    const recorded = ledger.list().filter((e) => e.kind === 'saq')
    for (const entry of recorded) {
      expect(entry.path.startsWith(bundle.folder + path.sep)).toBe(true)
      expect(fs.existsSync(entry.path)).toBe(true)
    }
  })

  it('fails with INTEGRITY_FAILED naming an evidence file that changed, and leaves no bundle', async () => {
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('scan.txt', 'clean') }),
      'browser',
    ))!
    fs.writeFileSync(ev.path, 'edited')
    const err = await appError(saq.auditBundle('acc-1', ['saq-1']))
    expect(err.code).toBe('INTEGRITY_FAILED')
    expect(err.message).toContain('scan.txt (requirement 8.3.1 of “SAQ saq-1”)')
    expect(fs.readdirSync(path.join(folder, 'SAQ'))).toEqual(['Evidence'])
    expect(ledger.list().filter((e) => e.kind === 'saq')).toEqual([])
  })

  it('fails naming an evidence file that is gone', async () => {
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('gone.txt', 'x') }),
      'browser',
    ))!
    fs.unlinkSync(ev.path)
    const err = await appError(saq.auditBundle('acc-1', ['saq-1']))
    expect(err.code).toBe('FILE_NOT_FOUND')
    expect(err.message).toContain('gone.txt')
    expect(fs.readdirSync(path.join(folder, 'SAQ'))).toEqual(['Evidence'])
  })
})

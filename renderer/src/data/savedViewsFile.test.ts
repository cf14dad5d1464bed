import { describe, expect, it } from 'vitest'
import { savedViewsDocument, type SavedView } from '@contract/views'
import { readViewsFile, viewsToFile } from './savedViewsFile'

const lists = new Set(['vulnerabilities', 'targets'])
const views: SavedView[] = [
  {
    id: 'view-1',
    name: 'Critical on PCI hosts',
    resource: 'vulnerabilities',
    query: { severity: 'critical', pci_compliant: 'false', sort: 'title', per_page: '50' },
    columns: ['title', 'severity', 'host_ip'],
    isDefault: true,
  },
  { id: 'view-2', name: 'Tagged', resource: 'targets', query: { tag: 'dmz' }, isDefault: false },
]
const text = (value: unknown) => JSON.stringify(value)

describe('a saved views file', () => {
  it('reads back what was exported, without the ids', () => {
    const read = readViewsFile(text(viewsToFile(views)), lists)
    expect(read).toEqual({
      ok: true,
      file: {
        format: 'scandesk-saved-views',
        version: 1,
        views: views.map(({ id: _id, ...rest }) => rest),
      },
    })
    expect(text(viewsToFile(views))).not.toContain('view-1')
  })

  it('is refused whole, saying what is wrong and where', () => {
    const file = viewsToFile(views)
    const refused = (value: unknown, why: RegExp) => {
      const read = readViewsFile(typeof value === 'string' ? value : text(value), lists)
      expect(read.ok).toBe(false)
      expect(read.ok ? '' : read.error).toMatch(why)
    }
    refused('{not json', /not JSON/)
    refused({ views: [] }, /not a ScanDesk views file/)
    refused({ ...file, version: 2 }, /Nothing was imported\. version: /)
    refused(
      { ...file, views: [file.views[0], { ...file.views[1], name: '  ' }] },
      /Nothing was imported\. View 2, name: is empty/,
    )
    refused({ ...file, views: [{ ...file.views[0], query: { 'Bad key': 'x' } }] }, /View 1, query/)
    refused({ ...file, views: [{ ...file.views[0], extra: 1 }] }, /View 1/)
    refused(
      { ...file, views: [file.views[0], { ...file.views[1], resource: 'gadgets' }] },
      /View 2 is of a list ScanDesk does not have \(“gadgets”\)/,
    )
    refused('x'.repeat(1024 * 1024 + 1), /larger than 1 MiB/)
    const deep = 5_000
    refused(
      `{"format":"scandesk-saved-views","version":1,"views":${'['.repeat(deep)}${']'.repeat(deep)}}`,
      /nests more than 64 levels deep/,
    )
  })

  it('matches what an account keeps', () => {
    expect(savedViewsDocument.safeParse({ views }).success).toBe(true)
    expect(savedViewsDocument.safeParse({ views: [{ ...views[0], id: 'a b' }] }).success).toBe(
      false,
    )
  })
})

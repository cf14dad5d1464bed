import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SavedViewsFile } from '@contract/views'
import { headlessHost } from '../host'
import { useTestHome } from './test-home'
import { MAX_VIEWS_FILE_BYTES, ViewFiles } from './views-file'

const t = useTestHome('scandesk-views-')
const content: SavedViewsFile = {
  format: 'scandesk-saved-views',
  version: 1,
  views: [
    { name: 'High', resource: 'vulnerabilities', query: { severity: 'high' }, isDefault: false },
  ],
}

function files(mode: 'electron' | 'browser', host: Partial<typeof headlessHost> = {}) {
  return new ViewFiles({
    mode,
    host: t.host(host),
    folders: t.folders(),
    accountLabel: () => 'Acme: EU/1',
    now: () => new Date('2030-02-03T10:00:00Z'),
  })
}

describe('the saved views file', () => {
  it('is saved through the save dialog (Electron), and a sent path is refused there', async () => {
    const chosen = path.join(t.home, 'mine')
    const out = await files('electron', { pickSaveAs: async () => chosen }).export({
      accountId: 'acc-1',
      content,
    })
    expect(out).toEqual({ saved: true, path: `${chosen}.json` })
    expect(JSON.parse(fs.readFileSync(`${chosen}.json`, 'utf8'))).toEqual(content)
    expect(fs.readdirSync(t.home)).toEqual(['mine.json'])
    await expect(
      files('electron').export({ accountId: 'acc-1', content, path: chosen }),
    ).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
    expect(await files('electron').export({ accountId: 'acc-1', content })).toEqual({
      saved: false,
    })
  })

  it('takes a typed path in browser mode, suggesting one, never replacing unasked', async () => {
    const first = await files('browser').export({ accountId: 'acc-1', content })
    expect(first).toEqual({
      saved: false,
      suggestedPath: path.join(t.home, 'Saved views - Acme_ EU_1 - 2030-02-03.json'),
    })
    const target = path.join(t.home, 'views.json')
    fs.writeFileSync(target, 'old')
    await expect(
      files('browser').export({ accountId: 'acc-1', content, path: target }),
    ).rejects.toMatchObject({ error: { code: 'CONFLICT' } })
    expect(fs.readFileSync(target, 'utf8')).toBe('old')
    await files('browser').export({ accountId: 'acc-1', content, path: target, replace: true })
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual(content)
    await expect(
      files('browser').export({ accountId: 'acc-1', content, path: path.join(t.root, 'x.json') }),
    ).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
  })

  it('is read as text from the open dialog or a typed path, at most 1 MiB', async () => {
    const file = path.join(t.home, 'in.json')
    fs.writeFileSync(file, JSON.stringify(content))
    expect(
      await files('electron', { pickFile: async () => file }).import({ accountId: 'acc-1' }),
    ).toEqual({ read: true, text: JSON.stringify(content) })
    expect(await files('browser').import({ accountId: 'acc-1' })).toEqual({
      read: false,
      suggestedFolder: t.home,
    })
    expect(await files('browser').import({ accountId: 'acc-1', path: file })).toMatchObject({
      read: true,
    })
    fs.writeFileSync(file, 'x'.repeat(MAX_VIEWS_FILE_BYTES + 1))
    await expect(files('browser').import({ accountId: 'acc-1', path: file })).rejects.toMatchObject(
      { error: { code: 'TOO_LARGE' } },
    )
    await expect(
      files('browser').import({ accountId: 'acc-1', path: path.join(t.home, 'none.json') }),
    ).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } })
  })
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'

type DialogCall = { parent: unknown; options: Record<string, unknown> }

const electron = vi.hoisted(() => ({
  focused: null as { id: number } | null,
  openCalls: [] as DialogCall[],
  saveCalls: [] as DialogCall[],
  boxCalls: [] as DialogCall[],
  boxAnswer: 0,
  openAnswer: { canceled: false, filePaths: [] as string[] },
  saveAnswer: { canceled: false, filePath: '' as string | undefined },
  openPathAnswer: '' as string | Error,
  opened: [] as string[],
  revealed: [] as string[],
  supported: true,
  shown: [] as { title: string; body: string }[],
}))

vi.mock('electron', () => {
  const record = (list: DialogCall[], args: unknown[]) =>
    list.push(
      args.length === 2
        ? { parent: args[0], options: args[1] as Record<string, unknown> }
        : { parent: null, options: args[0] as Record<string, unknown> },
    )
  class Notification {
    static isSupported = () => electron.supported
    constructor(private readonly options: { title: string; body: string }) {}
    show() {
      electron.shown.push(this.options)
    }
  }
  return {
    BrowserWindow: { getFocusedWindow: () => electron.focused },
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        record(electron.openCalls, args)
        return electron.openAnswer
      },
      showSaveDialog: async (...args: unknown[]) => {
        record(electron.saveCalls, args)
        return electron.saveAnswer
      },
      showMessageBox: async (...args: unknown[]) => {
        record(electron.boxCalls, args)
        return { response: electron.boxAnswer }
      },
    },
    shell: {
      openPath: async (path: string) => {
        electron.opened.push(path)
        if (electron.openPathAnswer instanceof Error) throw electron.openPathAnswer
        return electron.openPathAnswer
      },
      showItemInFolder: (path: string) => void electron.revealed.push(path),
    },
    Notification,
  }
})

const { createElectronHost } = await import('./host')

const shownAccounts: string[] = []
const windows = { showAccountWindow: (id: string) => void shownAccounts.push(id) }

const dir = mkdtempSync(join(tmpdir(), 'scandesk-host-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeEach(() => {
  electron.focused = null
  electron.openCalls.length = 0
  electron.saveCalls.length = 0
  electron.openAnswer = { canceled: false, filePaths: [] }
  electron.saveAnswer = { canceled: false, filePath: '' }
  electron.openPathAnswer = ''
  electron.opened.length = 0
  electron.revealed.length = 0
  electron.supported = true
  electron.shown.length = 0
  shownAccounts.length = 0
})

describe('picking a download folder', () => {
  it('asks for a directory the user may create, parented to the focused window', async () => {
    electron.focused = { id: 7 }
    electron.openAnswer = { canceled: false, filePaths: ['/home/ana/Reports'] }
    const folder = await createElectronHost(windows).pickFolder('Download folder', '/home/ana')
    expect(folder).toBe('/home/ana/Reports')
    expect(electron.openCalls).toEqual([
      {
        parent: { id: 7 },
        options: {
          title: 'Download folder',
          defaultPath: '/home/ana',
          properties: ['openDirectory', 'createDirectory'],
        },
      },
    ])
  })

  it('answers null when the user cancels', async () => {
    electron.openAnswer = { canceled: true, filePaths: ['/ignored'] }
    expect(await createElectronHost(windows).pickFolder('Download folder')).toBeNull()
    expect(electron.openCalls[0].parent).toBeNull()
    expect(electron.openCalls[0].options).not.toHaveProperty('defaultPath')
  })
})

describe('save as', () => {
  it('offers the proposed name with a filter for its format', async () => {
    electron.saveAnswer = { canceled: false, filePath: '/tmp/chosen.pdf' }
    expect(await createElectronHost(windows).pickSaveAs('/home/ana/Report 12.pdf')).toBe(
      '/tmp/chosen.pdf',
    )
    expect(electron.saveCalls[0].options).toMatchObject({
      defaultPath: '/home/ana/Report 12.pdf',
      filters: [{ name: 'PDF document', extensions: ['pdf'] }],
    })
  })

  it('answers null when cancelled or when no path comes back', async () => {
    electron.saveAnswer = { canceled: true, filePath: '/tmp/x.csv' }
    expect(await createElectronHost(windows).pickSaveAs('/home/ana/r.csv')).toBeNull()
    electron.saveAnswer = { canceled: false, filePath: undefined }
    expect(await createElectronHost(windows).pickSaveAs('/home/ana/r.csv')).toBeNull()
  })
})

describe('picking a file to verify', () => {
  it('asks for one existing PDF or CSV file', async () => {
    electron.focused = { id: 3 }
    electron.openAnswer = { canceled: false, filePaths: ['/home/ana/emailed.pdf'] }
    expect(await createElectronHost(windows).pickFile('Verify a file')).toBe(
      '/home/ana/emailed.pdf',
    )
    expect(electron.openCalls[0]).toEqual({
      parent: { id: 3 },
      options: {
        title: 'Verify a file',
        filters: [{ name: 'Reports (PDF, CSV)', extensions: ['pdf', 'csv'] }],
        properties: ['openFile'],
      },
    })
  })

  it('offers every file type for SAQ evidence', async () => {
    electron.focused = null
    electron.openAnswer = { canceled: false, filePaths: ['/home/ana/firewall.conf'] }
    expect(await createElectronHost(windows).pickFile('Choose evidence', 'any')).toBe(
      '/home/ana/firewall.conf',
    )
    expect(electron.openCalls.at(-1)?.options).toEqual({
      title: 'Choose evidence',
      properties: ['openFile'],
    })
  })
})

describe('opening and revealing files', () => {
  it('reports success only when the OS answered with no error message', async () => {
    const host = createElectronHost(windows)
    expect(await host.openPath('/r/a.pdf')).toBe(true)
    electron.openPathAnswer = 'No application is associated with this file'
    expect(await host.openPath('/r/a.pdf')).toBe(false)
    electron.openPathAnswer = new Error('boom')
    expect(await host.openPath('/r/a.pdf')).toBe(false)
    expect(electron.opened).toEqual(['/r/a.pdf', '/r/a.pdf', '/r/a.pdf'])
  })

  it('reveals an existing file in its folder and refuses a missing one', async () => {
    const file = join(dir, 'report.pdf')
    writeFileSync(file, '%PDF-1.4\n')
    const host = createElectronHost(windows)
    expect(await host.revealPath(file)).toBe(true)
    expect(await host.revealPath(join(dir, 'gone.pdf'))).toBe(false)
    expect(electron.revealed).toEqual([file])
  })
})

describe('notifications', () => {
  it('shows a native notification where the OS supports them', () => {
    createElectronHost(windows).notify('Report downloaded', 'Weekly.pdf was verified.')
    expect(electron.shown).toEqual([
      { title: 'Report downloaded', body: 'Weekly.pdf was verified.' },
    ])
  })

  it('shows service text without markup, control or bidi characters, capped', () => {
    const title = 'Acme: Scan \u202Eexe.pdf\u202C finished\u0007'
    const body = `<a href="https://evil.example">Open</a> & run\u0000 ${'x'.repeat(400)}`
    createElectronHost({ ...windows, platform: 'linux' }).notify(title, body)
    createElectronHost({ ...windows, platform: 'darwin' }).notify(title, 'a & <b>')
    expect(electron.shown).toHaveLength(2)
    const [onLinux, onMac] = electron.shown
    expect(onLinux.title).toBe('Acme: Scan exe.pdf finished')
    expect(
      onLinux.body.startsWith('&lt;a href="https://evil.example"&gt;Open&lt;/a&gt; &amp; run x'),
    ).toBe(true)
    expect(onLinux.body).not.toMatch(/[<>]/)
    expect(onLinux.body).not.toContain('\u0000')
    expect(onLinux.body.endsWith('…')).toBe(true)
    // elsewhere the body is plain text: nothing to escape, the rest still applies
    expect(onMac).toEqual({ title: 'Acme: Scan exe.pdf finished', body: 'a & <b>' })
  })

  it('does nothing where notifications are not supported', () => {
    electron.supported = false
    createElectronHost(windows).notify('Report downloaded', 'Weekly.pdf was verified.')
    expect(electron.shown).toEqual([])
  })
})

describe('opening an account in its own window', () => {
  it('asks main for the account window and answers that a window opened', async () => {
    const answer = await createElectronHost(windows).openAccountWindow('acc_7')
    expect(answer).toEqual({ opened: 'window' })
    expect(shownAccounts).toEqual(['acc_7'])
  })
})

describe('confirming a change of trust', () => {
  const request = {
    title: 'Change what ScanDesk trusts?',
    lines: ['Trust this certificate authority for scan.example.test.'],
    phrase: 'trust scan.example.test',
  }

  it('asks in a box of its own, Cancel by default, and trusts only on "Trust"', async () => {
    electron.boxCalls.length = 0
    electron.focused = { id: 3 }
    electron.boxAnswer = 1
    expect(await createElectronHost(windows).confirmTrust!(request)).toBe(true)
    expect(electron.boxCalls[0].parent).toEqual({ id: 3 })
    expect(electron.boxCalls[0].options).toMatchObject({
      type: 'warning',
      buttons: ['Cancel', 'Trust'],
      defaultId: 0,
      cancelId: 0,
      detail: request.lines[0],
    })
    electron.boxAnswer = 0
    expect(await createElectronHost(windows).confirmTrust!(request)).toBe(false)
  })
})

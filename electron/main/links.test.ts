import { resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import {
  claimSingleInstance,
  createLinkIntake,
  isLinkCandidate,
  linksInArgv,
  listenForLinks,
  MAX_LINK_LENGTH,
  MAX_PENDING_LINKS,
  openLinkFromClipboard,
  registerLinkScheme,
  type LinkApp,
  type LinkTarget,
} from './links'

const SSO = 'scandesk://sso?host=scan.example.test&token=tok_secret_sso_123'
const INVITE = 'scandesk://invite?host=scan.example.test:8443&token=tok_secret_inv_456'

type Listener = (...args: unknown[]) => void

/** A stand-in for Electron's `app` that records listeners and calls. */
function fakeApp(lock = true) {
  const listeners = new Map<string, Listener[]>()
  const app = {
    listeners,
    quit: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => lock),
    setAsDefaultProtocolClient: vi.fn((..._args: unknown[]) => true),
    on(name: string, fn: Listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), fn])
      return app
    },
    fire(name: string, ...args: unknown[]) {
      for (const fn of listeners.get(name) ?? []) fn(...args)
    },
  }
  return app
}
const asApp = (app: ReturnType<typeof fakeApp>) => app as unknown as LinkApp

/** A target that records what happened, in order. */
function recordingTarget(steps: string[] = []): LinkTarget & { steps: string[] } {
  return {
    steps,
    show: async () => void steps.push('show'),
    open: async (link) => void steps.push(`open ${link}`),
  }
}

function logger() {
  const lines: string[] = []
  return { lines, log: (level: string, message: string) => void lines.push(`${level} ${message}`) }
}

describe('what counts as a link', () => {
  it('accepts scandesk: strings up to the length limit and nothing else', () => {
    expect(isLinkCandidate(SSO)).toBe(true)
    expect(isLinkCandidate('SCANDESK://sso?host=a&token=b')).toBe(true)
    expect(isLinkCandidate('scandesk:' + 'x'.repeat(MAX_LINK_LENGTH - 9))).toBe(true)
    expect(isLinkCandidate('scandesk:' + 'x'.repeat(MAX_LINK_LENGTH - 8))).toBe(false)
    for (const other of ['https://scan.example.test/', 'scandesk', ' scandesk://sso', '', 42, null])
      expect(isLinkCandidate(other)).toBe(false)
  })

  it('picks only the scandesk: arguments of a command line', () => {
    const argv = [
      'C:\\ScanDesk\\ScanDesk.exe',
      '--allow-file-access',
      '.',
      SSO,
      'https://x.test',
      INVITE,
    ]
    expect(linksInArgv(argv)).toEqual([SSO, INVITE])
  })
})

describe('the link intake', () => {
  it('queues links that arrive before start and delivers them in order after the window shows', async () => {
    const intake = createLinkIntake(() => {})
    intake.accept(SSO)
    intake.accept(INVITE)
    const target = recordingTarget()
    await intake.settled()
    expect(target.steps).toEqual([])
    intake.start(target)
    await intake.settled()
    expect(target.steps).toEqual(['show', `open ${SSO}`, `open ${INVITE}`])
  })

  it('delivers a link at once after start, showing the window first', async () => {
    const intake = createLinkIntake(() => {})
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    expect(target.steps).toEqual([])
    intake.accept(INVITE)
    await intake.settled()
    expect(target.steps).toEqual(['show', `open ${INVITE}`])
  })

  it('drops overlong and foreign strings, and never logs a link', async () => {
    const { lines, log } = logger()
    const intake = createLinkIntake(log)
    const target = recordingTarget()
    intake.start(target)
    const long = `scandesk://sso?host=a.test&token=${'t'.repeat(MAX_LINK_LENGTH)}`
    intake.accept(long)
    intake.accept('https://scan.example.test/?token=abc')
    intake.accept({ url: SSO })
    await intake.settled()
    expect(target.steps.filter((s) => s.startsWith('open'))).toEqual([])
    expect(lines).toEqual([`warn ignored a link longer than ${MAX_LINK_LENGTH} characters`])
    expect(lines.join('\n')).not.toContain('token')
  })

  it('keeps at most a few links waiting before start', async () => {
    const { lines, log } = logger()
    const intake = createLinkIntake(log)
    for (let i = 0; i < MAX_PENDING_LINKS + 3; i++)
      intake.accept(`scandesk://sso?host=a.test&token=tok_${i}_abcdefgh`)
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    expect(target.steps.filter((s) => s.startsWith('open'))).toHaveLength(MAX_PENDING_LINKS)
    expect(lines).toHaveLength(3)
  })

  it('goes on with the next link when one fails, logging no link and no message', async () => {
    const { lines, log } = logger()
    const intake = createLinkIntake(log)
    const opened: string[] = []
    intake.start({
      show: async () => {},
      open: async (link) => {
        if (link === SSO) throw new TypeError(`bad link ${link}`)
        opened.push(link)
      },
    })
    intake.accept(SSO)
    intake.accept(INVITE)
    await intake.settled()
    expect(opened).toEqual([INVITE])
    expect(lines).toEqual(['error opening a link failed: TypeError'])
  })

  it('brings the window forward on wake only once started', async () => {
    const intake = createLinkIntake(() => {})
    intake.wake()
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    intake.wake()
    await intake.settled()
    expect(target.steps).toEqual(['show'])
  })
})

describe('links from the OS', () => {
  it('queues a macOS open-url that arrives before ready and takes it over from the OS', async () => {
    const app = fakeApp()
    const intake = createLinkIntake(() => {})
    listenForLinks(asApp(app), intake, ['/Applications/ScanDesk.app/Contents/MacOS/ScanDesk'])
    const event = { preventDefault: vi.fn() }
    app.fire('open-url', event, SSO)
    expect(event.preventDefault).toHaveBeenCalled()
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    expect(target.steps).toEqual(['show', `open ${SSO}`])
  })

  it("passes on only the scandesk: arguments of a second instance's command line", async () => {
    const app = fakeApp()
    const intake = createLinkIntake(() => {})
    listenForLinks(asApp(app), intake, [])
    const target = recordingTarget()
    intake.start(target)
    const long = 'scandesk://sso?token=' + 'x'.repeat(MAX_LINK_LENGTH)
    app.fire(
      'second-instance',
      {},
      ['scandesk.exe', '--flag', 'file:///etc/passwd', long, INVITE],
      'C:\\',
    )
    await intake.settled()
    expect(target.steps).toEqual(['show', `open ${INVITE}`])
  })

  it('brings the window forward when ScanDesk is launched again without a link', async () => {
    const app = fakeApp()
    const intake = createLinkIntake(() => {})
    listenForLinks(asApp(app), intake, [])
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    app.fire('second-instance', {}, ['scandesk', '--some-flag'], '/home/ana')
    await intake.settled()
    expect(target.steps).toEqual(['show'])
  })

  it('takes the link this instance was launched with (Windows/Linux)', async () => {
    const intake = createLinkIntake(() => {})
    listenForLinks(asApp(fakeApp()), intake, ['/opt/ScanDesk/scandesk', '--no-sandbox', SSO])
    const target = recordingTarget()
    intake.start(target)
    await intake.settled()
    expect(target.steps).toEqual(['show', `open ${SSO}`])
  })
})

describe('registering the scandesk: scheme', () => {
  it('registers the packaged app itself', () => {
    const app = fakeApp()
    const facts = {
      defaultApp: false,
      execPath: '/opt/ScanDesk/scandesk',
      argv: ['/opt/ScanDesk/scandesk'],
    }
    expect(registerLinkScheme(asApp(app), facts)).toBe(true)
    expect(app.setAsDefaultProtocolClient.mock.calls).toEqual([['scandesk']])
  })

  it('registers Electron with the app path in development', () => {
    const app = fakeApp()
    const facts = {
      defaultApp: true,
      execPath: '/dev/node_modules/electron/dist/electron',
      argv: ['/dev/node_modules/electron/dist/electron', '.'],
    }
    registerLinkScheme(asApp(app), facts)
    expect(app.setAsDefaultProtocolClient.mock.calls).toEqual([
      ['scandesk', '/dev/node_modules/electron/dist/electron', [resolve('.')]],
    ])
  })
})

describe('one ScanDesk at a time', () => {
  it('quits when another instance holds the lock', () => {
    const app = fakeApp(false)
    expect(claimSingleInstance(asApp(app))).toBe(false)
    expect(app.quit).toHaveBeenCalledTimes(1)
  })

  it('keeps running when it got the lock', () => {
    const app = fakeApp(true)
    expect(claimSingleInstance(asApp(app))).toBe(true)
    expect(app.quit).not.toHaveBeenCalled()
  })
})

describe('File → Open Link from Clipboard', () => {
  it('hands a copied link to the intake', async () => {
    const intake = createLinkIntake(() => {})
    const target = recordingTarget()
    intake.start(target)
    const explain = vi.fn()
    await openLinkFromClipboard(async () => `  ${SSO}\n`, intake, explain)
    await intake.settled()
    expect(target.steps).toContain(`open ${SSO}`)
    expect(explain).not.toHaveBeenCalled()
  })

  it('explains instead when the clipboard holds no link or cannot be read', async () => {
    const intake = createLinkIntake(() => {})
    const target = recordingTarget()
    intake.start(target)
    const explain = vi.fn()
    await openLinkFromClipboard(async () => 'https://scan.example.test/', intake, explain)
    await openLinkFromClipboard(() => Promise.reject(new Error('denied')), intake, explain)
    await intake.settled()
    expect(explain).toHaveBeenCalledTimes(2)
    expect(target.steps.filter((s) => s.startsWith('open'))).toEqual([])
  })
})

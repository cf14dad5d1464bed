// scandesk:// links from the OS: the protocol registration, the single-instance lock, and the
// intake that queues links until the core and a window are ready, then hands each to the core.
// A link carries a one-time token: it is never logged, and only main ever sees it.
import { resolve } from 'node:path'
import type { App } from 'electron'

/** The URL scheme ScanDesk registers with the OS. */
export const LINK_SCHEME = 'scandesk'
/** Longer strings are dropped unread (the contract's links.open limit). */
export const MAX_LINK_LENGTH = 4096
/** Links waiting for the core beyond this many are dropped (a flood of launches is not a use). */
export const MAX_PENDING_LINKS = 8

type Log = (level: 'info' | 'warn' | 'error', message: string) => void

function hasLinkScheme(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.slice(0, LINK_SCHEME.length + 1).toLowerCase() === `${LINK_SCHEME}:`
  )
}

/** True for a string that may be a ScanDesk link: starts with `scandesk:`, at most 4096 chars. */
export function isLinkCandidate(value: unknown): value is string {
  return hasLinkScheme(value) && value.length <= MAX_LINK_LENGTH
}

/** The scandesk: strings of a command line (Windows/Linux pass the link as an argument). */
export function linksInArgv(argv: readonly unknown[]): string[] {
  return argv.filter(hasLinkScheme)
}

/** Where links go once ScanDesk can take them. */
export interface LinkTarget {
  /** Brings the main window forward; resolves once its page can receive events. */
  show(): Promise<void>
  /** Hands one link to the core (core.openLink → openLinkFromOs). */
  open(link: string): Promise<void>
}

/** Queues links from the OS until started, then shows the window and opens them in order. */
export interface LinkIntake {
  /** Takes one string from the OS; anything that is not a link candidate is dropped. */
  accept(value: unknown): void
  /** Brings the window forward (a second launch without a link); no-op before start. */
  wake(): void
  /** Starts delivering: queued links first, then each as it arrives. */
  start(target: LinkTarget): void
  /** Resolves when everything accepted so far has been handed on (tests, shutdown). */
  settled(): Promise<void>
}

/** Creates the link intake; `log` never receives a link. */
export function createLinkIntake(log: Log): LinkIntake {
  const queue: string[] = []
  let target: LinkTarget | null = null
  let chain: Promise<void> = Promise.resolve()

  const run = (links: string[]) => {
    const to = target
    if (!to) return
    chain = chain.then(async () => {
      try {
        await to.show()
      } catch (err) {
        log('warn', `could not bring a window forward: ${errorName(err)}`)
      }
      for (const link of links) {
        try {
          await to.open(link)
        } catch (err) {
          log('error', `opening a link failed: ${errorName(err)}`)
        }
      }
    })
  }

  return {
    accept(value) {
      if (!isLinkCandidate(value)) {
        if (hasLinkScheme(value))
          log('warn', `ignored a link longer than ${MAX_LINK_LENGTH} characters`)
        return
      }
      if (!target) {
        if (queue.length >= MAX_PENDING_LINKS)
          return log('warn', 'ignored a link: too many waiting')
        queue.push(value)
        return
      }
      run([value])
    },
    wake() {
      run([])
    },
    start(to) {
      if (target) return
      target = to
      if (queue.length) run(queue.splice(0))
    },
    settled: () => chain,
  }
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err
}

/** The parts of `app` the link wiring uses. */
export type LinkApp = Pick<
  App,
  'on' | 'quit' | 'requestSingleInstanceLock' | 'setAsDefaultProtocolClient'
>

/** The process facts the protocol registration needs. */
export interface LaunchFacts {
  /** True when run as `electron <app path>` (development): Electron's `process.defaultApp`. */
  defaultApp: boolean
  execPath: string
  argv: readonly string[]
}

/**
 * Makes ScanDesk the OS handler of scandesk://. In development the OS must start Electron with
 * the app's path (Windows/Linux), so the executable and that path are registered.
 */
export function registerLinkScheme(app: LinkApp, facts: LaunchFacts): boolean {
  if (!facts.defaultApp) return app.setAsDefaultProtocolClient(LINK_SCHEME)
  const appPath = facts.argv[1]
  if (!appPath) return false
  return app.setAsDefaultProtocolClient(LINK_SCHEME, facts.execPath, [resolve(appPath)])
}

/** Takes the single-instance lock; quits (and answers false) when another ScanDesk holds it. */
export function claimSingleInstance(app: LinkApp): boolean {
  if (app.requestSingleInstanceLock()) return true
  app.quit()
  return false
}

/**
 * Feeds the intake from every way a link arrives: 'open-url' (macOS, also before ready),
 * 'second-instance' argv (Windows/Linux) and this instance's own argv. Call before ready.
 */
export function listenForLinks(app: LinkApp, intake: LinkIntake, ownArgv: readonly string[]): void {
  app.on('open-url', (event, url) => {
    event.preventDefault()
    intake.accept(url)
  })
  app.on('second-instance', (_event, argv) => {
    const links = linksInArgv(argv)
    if (links.length === 0) return intake.wake()
    for (const link of links) intake.accept(link)
  })
  for (const link of linksInArgv(ownArgv)) intake.accept(link)
}

/**
 * File → Open Link from Clipboard: takes a link copied from an e-mail straight into main (the
 * page never sees it); `explain` tells the user what to do when the clipboard holds none.
 */
export async function openLinkFromClipboard(
  readText: () => Promise<string>,
  intake: LinkIntake,
  explain: () => void,
): Promise<void> {
  let text = ''
  try {
    text = (await readText()).trim()
  } catch {
    // An unreadable clipboard holds no link for us.
  }
  if (isLinkCandidate(text)) intake.accept(text)
  else explain()
}

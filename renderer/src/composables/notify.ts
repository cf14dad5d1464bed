// Native notifications through the Web Notification API (Electron shows them as the system's
// notifications). Permission is asked politely: at most once, remembered across restarts, and
// never again once the user answered. Where the API is missing or denied, nothing happens.
import { notificationText } from '@contract/notification-text'
import { bridgeKind } from '@/bridge/bridge'

/** localStorage key: the permission was asked already (whatever the answer). */
export const NOTIFY_ASKED_KEY = 'scandesk.notifications.asked'

/** Tags of the notifications this window raised (one per finished run). */
const raised = new Set<string>()

function api(): typeof Notification | null {
  return typeof window !== 'undefined' && typeof window.Notification === 'function'
    ? window.Notification
    : null
}

function wasAsked(): boolean {
  try {
    return localStorage.getItem(NOTIFY_ASKED_KEY) === '1'
  } catch {
    return false
  }
}

function rememberAsked(): void {
  try {
    localStorage.setItem(NOTIFY_ASKED_KEY, '1')
  } catch {
    // No storage: asked again next session at worst.
  }
}

/** True where notifications can be shown now (the API exists and the user allowed them). */
export function canNotify(): boolean {
  return api()?.permission === 'granted'
}

/**
 * Where notifications stand: 'granted', 'denied', 'default' (not answered and not asked yet: a
 * view may offer to ask), or 'unavailable' (no API, or asked before without an answer).
 */
export function notifyState(): 'granted' | 'denied' | 'default' | 'unavailable' {
  const N = api()
  if (!N) return 'unavailable'
  if (N.permission === 'default' && wasAsked()) return 'unavailable'
  return N.permission
}

/**
 * Asks for permission once: only while the user has not answered and it was not asked before.
 * Resolves true when notifications may be shown.
 */
export async function askNotifyOnce(): Promise<boolean> {
  const N = api()
  if (!N) return false
  if (N.permission !== 'default') return N.permission === 'granted'
  if (wasAsked()) return false
  rememberAsked()
  try {
    return (await N.requestPermission()) === 'granted'
  } catch {
    return false
  }
}

/** What a notification says. */
export interface NotifyMessage {
  title: string
  body?: string
  /** One notification per tag in this window (a finished run: scan id and finish time). */
  tag: string
}

/**
 * True where the OS reads a notification's body as markup: Electron on Linux hands the text to
 * libnotify as it is. A browser (browser mode) escapes it itself.
 */
function bodyIsMarkup(): boolean {
  return bridgeKind() === 'electron' && /\bLinux\b/.test(navigator.userAgent)
}

/**
 * Shows a native notification, once per tag; clicking it brings this window forward. The text
 * goes through `notificationText` (service text: no markup, control or bidi characters, capped).
 * Returns true when one was shown (false: not allowed, unavailable, or already raised).
 */
export function notify(message: NotifyMessage): boolean {
  const N = api()
  if (!N || N.permission !== 'granted' || raised.has(message.tag)) return false
  raised.add(message.tag)
  try {
    const text = notificationText(message.title, message.body ?? '', { markup: bodyIsMarkup() })
    const shown = new N(text.title, { body: text.body, tag: message.tag })
    shown.onclick = () => window.focus()
    return true
  } catch {
    return false
  }
}

/** Forgets the raised tags (tests). */
export function resetNotifyForTests(): void {
  raised.clear()
}

// The answer to a good launch token (browser mode): the page that hands the page key to this
// tab's sessionStorage and moves to `/`. Decisions: docs/decisions.md, "Browser mode: the launch
// token" and "Browser mode: the page key".
import { createHash } from 'node:crypto'
import { BRIDGE_KEY_STORAGE } from '@contract/browser-bridge'

/** What a used, expired or unknown launch token gets (401). */
export const REFUSED_LAUNCH =
  'This launch address was already used or has expired (each one works once, for 2 minutes).\n' +
  'If this browser already has ScanDesk open, use that tab; otherwise start browser mode again ' +
  'for a new address.'

/**
 * The exchange page for one session: an inline script, allowed by its hash alone, keeps `key` in
 * this tab's sessionStorage and replaces the page with `/` (the token address leaves the history
 * entry). A script, not a 302: the key must reach the page's script without ever being in an
 * address (history, sync) or a cookie (sent to every port), and a navigation the page itself
 * starts is same-site, so the SameSite=Strict cookie goes along even when the launch began at a
 * `file://` launch page. Storage refused (a privacy mode): the app still loads and says the tab
 * has no key.
 */
export function exchangePage(key: string): { html: string; contentSecurityPolicy: string } {
  const script =
    `try{sessionStorage.setItem(${JSON.stringify(BRIDGE_KEY_STORAGE)},${JSON.stringify(key)})}` +
    `catch(e){}location.replace("/")`
  const hash = createHash('sha256').update(script).digest('base64')
  return {
    html:
      '<!doctype html><meta charset="utf-8"><title>ScanDesk</title>' +
      `<script>${script}</script>` +
      '<noscript>ScanDesk needs JavaScript in this tab.</noscript>',
    contentSecurityPolicy:
      `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; ` +
      "frame-ancestors 'none'",
  }
}

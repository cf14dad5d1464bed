// Browser mode's page key (issue 23, weakness 1): besides the session cookie, every bridge
// request carries a per-session secret that only the page's script holds. Browsers do not scope
// cookies by port, so another server on 127.0.0.1 that the browser visits receives the cookie;
// it never sees the key. Decisions: docs/decisions.md, "Browser mode: the page key".

/** The request header that carries the page key on `POST /bridge/call/<channel>`. */
export const BRIDGE_KEY_HEADER = 'X-ScanDesk-Key'

/**
 * The query parameter that carries it on `GET /bridge/events` only: EventSource cannot send
 * headers. Accepted nowhere else.
 */
export const BRIDGE_KEY_PARAM = 'key'

/** Where the page keeps it: sessionStorage (this tab, survives a reload, gone with the tab). */
export const BRIDGE_KEY_STORAGE = 'scandesk-bridge-key'

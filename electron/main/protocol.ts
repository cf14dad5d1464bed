import { promises as fs } from 'node:fs'
import { protocol } from 'electron'
import { findStaticFile, resolveStaticPath, staticHeaders } from '../core/browser/static-files'
import { APP_HOST, APP_SCHEME } from './origin'

/** Registers app:// as a standard, secure scheme; must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ])
}

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  })
}

/**
 * The app:// request handler: serves files of the built renderer under app://scandesk/ with the
 * strict CSP; anything outside that folder (`..`, encoded slashes) or another host is a 404.
 */
export function createAppRequestHandler(
  rendererDir: string,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return notFound()
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST) return notFound()
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response('Method not allowed', { status: 405 })
    const rawPath = request.url.slice(`${APP_SCHEME}://${APP_HOST}`.length).split(/[?#]/)[0] || '/'
    let found = await findStaticFile(rendererDir, rawPath)
    if (!found && resolveStaticPath(rendererDir, rawPath) && !/\.[a-z0-9]+$/i.test(rawPath))
      found = await findStaticFile(rendererDir, '/index.html')
    if (!found) return notFound()
    const body = request.method === 'HEAD' ? null : new Uint8Array(await fs.readFile(found.file))
    return new Response(body, { status: 200, headers: staticHeaders(found.file) })
  }
}

/** Serves the built renderer on app://scandesk/; call once the app is ready. */
export function serveAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler(rendererDir))
}

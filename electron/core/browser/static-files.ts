import { createReadStream, promises as fs } from 'node:fs'
import { extname, resolve, sep } from 'node:path'
import type { ServerResponse } from 'node:http'

/** The Content-Security-Policy header sent with every renderer file (browser mode and app://). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The same policy as the built index.html carries it in its meta element: `frame-ancestors` is
 * ignored there (header only). Element Plus sets inline styles, hence 'unsafe-inline' for styles;
 * `connect-src 'self'` is browser mode's bridge (fetch and EventSource); nothing else loads.
 */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "; frame-ancestors 'none'",
  '',
)

/** The policy of every browser-mode answer that is not a renderer file (JSON, text, events). */
export const NO_CONTENT_POLICY =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

/** The Content-Type for a file name; unknown extensions are served as opaque bytes. */
export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * A build's file named by its content (Vite's `assets/<name>-<8-character hash>.<ext>`): its
 * bytes never change under that name, a new build names its files anew.
 */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/

/**
 * Headers every renderer file carries. index.html is never cached (it names the hashed assets);
 * the hashed assets are kept for a year without asking again, so a reload in browser mode, or a
 * list screen's code after it, comes from the browser's cache rather than 40-odd requests over
 * Chromium's six connections (issue 22 §1). `private`: they are served to a signed-in tab only.
 * Any other file is asked again each time.
 */
export function staticHeaders(fileName: string): Record<string, string> {
  return {
    'Content-Type': contentTypeOf(fileName),
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': fileName.endsWith('index.html')
      ? 'no-store'
      : HASHED_ASSET.test(fileName)
        ? 'private, max-age=31536000, immutable'
        : 'no-cache',
  }
}

/**
 * Maps a URL path (still percent-encoded, no query) to a file under `root`, or null when the path
 * is malformed or would leave `root` (`..`, encoded slashes, NUL, backslashes). `/` is index.html.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null
  const segments = decoded.split('/').filter((s) => s !== '')
  if (segments.some((s) => s === '..' || s === '.')) return null
  if (/%2f|%5c/i.test(urlPath)) return null
  const rootDir = resolve(root)
  const file = resolve(rootDir, ...(segments.length ? segments : ['index.html']))
  if (file !== rootDir && !file.startsWith(rootDir + sep)) return null
  return file
}

/** Resolves and checks a static file; null when it is missing, not a regular file or outside root. */
export async function findStaticFile(
  root: string,
  urlPath: string,
): Promise<{ file: string; size: number } | null> {
  const file = resolveStaticPath(root, urlPath)
  if (!file) return null
  try {
    const real = await fs.realpath(file)
    const realRoot = await fs.realpath(root)
    if (!real.startsWith(realRoot + sep)) return null
    const stat = await fs.stat(real)
    return stat.isFile() ? { file: real, size: stat.size } : null
  } catch {
    return null
  }
}

/** Streams one renderer file to an HTTP response with the static headers (HEAD sends headers only). */
export function sendStaticFile(
  res: ServerResponse,
  found: { file: string; size: number },
  headOnly: boolean,
): void {
  res.writeHead(200, { ...staticHeaders(found.file), 'Content-Length': String(found.size) })
  if (headOnly) {
    res.end()
    return
  }
  const stream = createReadStream(found.file)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}

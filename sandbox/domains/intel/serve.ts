// Serves the feeds of feeds.ts at /feeds/… (GET and HEAD), each body made on first request and kept.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { feedAt } from './feeds'

/** The feeds of one sandbox run; `answer` handles a request for one and says whether it did. */
export function servedFeeds(seed: number, startedAt: number) {
  const made = new Map<string, { type: string; body: Buffer }>()
  return {
    answer(req: IncomingMessage, res: ServerResponse): boolean {
      const pathname = new URL(req.url ?? '/', 'http://sandbox.local').pathname
      if (!pathname.startsWith('/feeds/')) return false
      const method = (req.method ?? 'GET').toUpperCase()
      const feed = made.get(pathname) ?? feedAt(pathname, seed, startedAt)
      if (feed) made.set(pathname, feed)
      if (!feed || (method !== 'GET' && method !== 'HEAD')) {
        res.writeHead(feed ? 405 : 404, { 'Content-Type': 'text/plain' })
        res.end(feed ? 'Only GET is served here.' : 'No such feed.')
        return true
      }
      res.writeHead(200, {
        'Content-Type': feed.type,
        'Content-Length': String(feed.body.length),
        'Cache-Control': 'no-store',
      })
      res.end(method === 'HEAD' ? undefined : feed.body)
      return true
    },
  }
}

// Reading a large download's body straight from its socket. Node's HTTP parser copies every body
// chunk into a new buffer and passes it through the response stream; for a body of known length
// that is most of the CPU a download costs (about 1 s per GiB). Once the headers are read, the
// rest of such a body is taken off the parser and read from the socket as it arrives (the same
// buffers, moved on, never copied), as Node itself does for an upgraded connection.
import type { ClientRequest, IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

/** A body taken off the parser: what it had read already, and the socket the rest arrives on. */
export interface RawBody {
  socket: Socket
  /** Body bytes the parser had read before the take-over, in order (maybe none). */
  prefix: Buffer[]
}

/**
 * Takes the rest of `res`'s body off Node's HTTP parser, or returns null (the caller then reads
 * `res` as usual) when that is not safe: the body is complete already, has no Content-Length or
 * is chunked, or the socket is not the request's own. After a take-over the socket is paused and
 * cannot be reused: the caller resumes it, counts the bytes against Content-Length itself and
 * destroys the request when done. Call it after the parser has finished the read that carried
 * the headers (a microtask or later after 'response').
 */
export function takeOverBody(req: ClientRequest, res: IncomingMessage): RawBody | null {
  const socket = res.socket
  if (!socket || socket.destroyed || req.socket !== socket || res.complete) return null
  if (res.headers['transfer-encoding'] !== undefined) return null
  if (!/^\d{1,16}$/.test(res.headers['content-length']?.trim() ?? '')) return null
  // The parser's listener (Node's http client reads the socket through 'data' events only).
  const parser = socket.listeners('data') as ((chunk: Buffer) => void)[]
  if (parser.length === 0) return null
  socket.pause()
  for (const listener of parser) socket.removeListener('data', listener)
  const prefix: Buffer[] = []
  for (let chunk = res.read() as Buffer | null; chunk !== null; chunk = res.read() as Buffer | null)
    prefix.push(chunk)
  // Reading the response may have resumed its socket.
  socket.pause()
  return { socket, prefix }
}

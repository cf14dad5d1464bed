// A TCP relay on 127.0.0.1 between ScanDesk and a service, to make the service unreachable on
// demand: cut (connections reset and refused, like a service that is down) or hold (connections
// accepted and never answered, like a network that drops packets). Stops itself on close().
import net from 'node:net'

/** A running relay and its switches. */
export interface Relay {
  url: string
  port: number
  /** Open connections are reset and new ones refused (ECONNRESET). */
  cut(): void
  /** New connections are accepted and never answered (the client times out). */
  hold(): void
  /** Back to relaying. */
  restore(): void
  close(): Promise<void>
}

/** Starts a relay on a free loopback port to `port` on 127.0.0.1. */
export async function startRelay(port: number): Promise<Relay> {
  let mode: 'relay' | 'cut' | 'hold' = 'relay'
  const sockets = new Set<net.Socket>()
  const track = (s: net.Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => s.destroy())
  }
  const server = net.createServer((client) => {
    if (mode === 'cut') return void client.destroy()
    track(client)
    if (mode === 'hold') return
    const upstream = net.connect(port, '127.0.0.1')
    track(upstream)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as net.AddressInfo
  const dropAll = () => {
    for (const s of sockets) s.destroy()
  }
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    cut() {
      mode = 'cut'
      dropAll()
    },
    hold() {
      mode = 'hold'
      dropAll()
    },
    restore() {
      mode = 'relay'
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll()
        server.close(() => resolve())
      }),
  }
}

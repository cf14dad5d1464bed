// Tells the core what the OS knows about the network: Electron's net.isOnline() (polled: Electron
// has no change event for it; a false answer is reliable, a true one only means "maybe") and
// powerMonitor's resume after sleep, when every account is checked again.

/** The parts of Electron this needs (injected, so the wiring is tested without Electron). */
export interface NetworkSources {
  net: { isOnline(): boolean }
  powerMonitor: { on(event: 'resume', listener: () => void): unknown }
}

/** What the core offers for it. */
export interface NetworkSink {
  setNetwork(online: boolean | null): void
  resumed(): void
}

/** Starts watching; returns the function that stops the polling. */
export function watchNetwork(
  sources: NetworkSources,
  core: NetworkSink,
  everyMs = 5_000,
): () => void {
  let last: boolean | null = null
  const poll = () => {
    const online = sources.net.isOnline()
    if (online === last) return
    last = online
    core.setNetwork(online)
  }
  poll()
  const timer = setInterval(poll, everyMs)
  timer.unref?.()
  sources.powerMonitor.on('resume', () => {
    poll()
    core.resumed()
  })
  return () => clearInterval(timer)
}

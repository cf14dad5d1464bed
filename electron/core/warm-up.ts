// Modules the first window does not need are loaded on first use; so that first use does not
// wait for them either, they are also loaded a little after the core has started (the first
// window has shown by then), each once, without keeping the process alive.

/** How long after the core's start the deferred modules are loaded. */
export const WARM_UP_AFTER_MS = 1500

/**
 * Runs each of `loads` once, `delayMs` after now (a load that fails is left to its first use,
 * which reports it). Returns a function that cancels the loads not yet started.
 */
export function warmUpLater(
  loads: readonly (() => Promise<unknown>)[],
  delayMs: number = WARM_UP_AFTER_MS,
): () => void {
  const timer = setTimeout(() => {
    for (const load of loads) void load().catch(() => undefined)
  }, delayMs)
  timer.unref()
  return () => clearTimeout(timer)
}

/**
 * A per-key fixed-window call counter, after fastify-rate-limit's LocalStore: a key's window
 * opens at its first call and lasts `windowMs`; every call in it counts, refused ones included.
 * Pure apart from the map it owns: the caller passes the time, so a test moves a clock instead
 * of sleeping, and each tenant can be counted on its own clock.
 */
export interface WindowState {
  limit: number
  /** Calls still allowed in this window after this one (never below 0). */
  remaining: number
  /** Whole seconds until the window resets. */
  resetSeconds: number
  allowed: boolean
}

export interface FixedWindow {
  hit(key: string, now: number, limit: number): WindowState
  /** The key's window as it stands, without counting a call. */
  peek(key: string, now: number, limit: number): WindowState
  /** The key's next call opens a new window (its app was reset). */
  forget(key: string): void
}

export function createFixedWindow(windowMs: number, maxKeys = 100_000): FixedWindow {
  const windows = new Map<string, { start: number; count: number }>()

  function current(key: string, now: number) {
    const w = windows.get(key)
    // A clock moved backwards (a test, or a sandbox clock reset) also opens a new window.
    if (w && now >= w.start && now < w.start + windowMs) return w
    if (windows.size >= maxKeys) prune(now)
    const fresh = { start: now, count: 0 }
    windows.set(key, fresh)
    return fresh
  }

  function prune(now: number): void {
    for (const [k, w] of windows) if (now >= w.start + windowMs) windows.delete(k)
    if (windows.size >= maxKeys) windows.clear()
  }

  function state(w: { start: number; count: number }, now: number, limit: number): WindowState {
    return {
      limit,
      remaining: Math.max(0, limit - w.count),
      resetSeconds: Math.max(0, Math.ceil((w.start + windowMs - now) / 1000)),
      allowed: w.count <= limit,
    }
  }

  return {
    hit(key, now, limit) {
      const w = current(key, now)
      w.count += 1
      return state(w, now, limit)
    },
    peek(key, now, limit) {
      const w = windows.get(key)
      if (w && now >= w.start && now < w.start + windowMs) return state(w, now, limit)
      return { limit, remaining: limit, resetSeconds: 0, allowed: true }
    },
    forget(key) {
      windows.delete(key)
    },
  }
}

import { NothingArrived } from './errors.js'
import type { Transport } from './http.js'

// Reading the control plane's lists, and waiting for the next item of one: `after=<seq>` names
// what the caller has seen, `wait=<ms>` holds the request until something newer arrives. The
// server holds a request for at most 30 s: a longer wait is a few requests in a row.

export const MAX_WAIT_MS = 30_000
/** How long a `next…()` call waits when not told. */
export const DEFAULT_WAIT_MS = 5_000

/** Each list's path, and the key of its items in the answer. */
export const LISTS = {
  messages: { path: '/_sandbox/sms/messages', key: 'messages' },
  pushes: { path: '/_sandbox/push/messages', key: 'messages' },
  callbacks: { path: '/_sandbox/callbacks', key: 'callbacks' },
  reports: { path: '/_sandbox/sms/reports', key: 'reports' },
  replies: { path: '/_sandbox/sms/replies', key: 'replies' },
  requests: { path: '/_sandbox/requests', key: 'requests' },
}

export const readList = <P>(transport: Transport, path: string, filter: object = {}) =>
  transport.json<P>('GET', path, { query: filter })

/**
 * The first item after `after` matching `filter`, once it exists, or undefined when `waitMs` of
 * real time passed without one.
 */
export async function firstAfter<T>(
  transport: Transport,
  path: string,
  key: string,
  filter: object,
  after: number,
  waitMs: number,
): Promise<T | undefined> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, deadline - Date.now()))
    const page = await readList<Record<string, T[]>>(transport, path, { ...filter, after, limit: 1, wait })
    const item = page[key]?.[0]
    // A held request also ends early when the app is reset: then it is asked again.
    if (item !== undefined || Date.now() >= deadline) return item
  }
}

/**
 * Where each `next…()` of a client goes on from: per list and filter, the seq of the last item it
 * returned, else the client's mark (0 until `mark()`: from the app's first item).
 */
export function createCursors() {
  const seen = new Map<string, number>()
  let origin = 0
  const keyOf = (path: string, filter: object) => {
    const given = Object.entries(filter).filter(([, value]) => value !== undefined)
    return `${path}?${JSON.stringify(given.sort(([a], [b]) => a.localeCompare(b)))}`
  }

  return {
    mark(seq: number): void {
      origin = seq
      seen.clear()
    },
    /** The next item after the cursor (or `after`, when given); the cursor moves to it. */
    async next<T extends { seq: number }>(
      transport: Transport,
      list: { path: string; key: string },
      filter: object,
      options: NextOptions,
    ): Promise<T> {
      const key = keyOf(list.path, filter)
      const after = options.after ?? seen.get(key) ?? origin
      const waitMs = options.wait ?? DEFAULT_WAIT_MS
      const item = await firstAfter<T>(transport, list.path, list.key, filter, after, waitMs)
      if (item === undefined) throw new NothingArrived(list.path, { ...filter }, after, waitMs)
      seen.set(key, item.seq)
      return item
    },
  }
}

export interface NextOptions {
  /** Items after this seq; by default, after the last one this client's `next…()` returned. */
  after?: number
  /** Real milliseconds to wait for it (5 000 by default; longer waits are fine). */
  wait?: number
}

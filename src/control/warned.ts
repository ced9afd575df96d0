import { z } from 'zod'
import type { Store } from '../store/index.js'

// The production advisor's warnings (src/advisor/) on the call that made a text or a push, for the
// lists that show what the app sent (the web UI's phone and device views: docs/web-ui.md). The
// journal keeps a warning with its request, not with what the request made: the ids the request
// created (its answer's msg_id, schedule_id) tie the two, so a list reads the app's warned
// requests once, and only when it has an item to look up.

/** One warning of the call that made an item, and that call's seq in the journal (#/requests/<seq>). */
export interface WarnedCall {
  rule: string
  message: string
  source: string
  request_seq: number
}

/**
 * The production advisor's warnings on the call that made a text or a push (`warnedCalls` below), each
 * with that call's journal seq. In the lists' answers; absent: none, or the call is no longer in
 * the journal. An event's item has none: the call is journaled once answered, after its events
 * (`request.completed` then carries them).
 */
export const warnedCallsItem = z
  .array(z.object({ rule: z.string(), message: z.string(), source: z.string(), request_seq: z.number() }))
  .optional()

/**
 * The journal keeps JOURNAL_MAX_PER_APP entries (1000 by default): its warned ones are read at
 * most this many, newest first. An item whose call was warned longer ago (or is no longer kept)
 * shows none.
 */
const WARNED_READ = 1000

/** The ids a warned request can make, by their vendor names. */
type MadeId = 'msg_id' | 'schedule_id'

/**
 * `{ warnings }` when there are some, else nothing: an item without warnings is the same item its
 * event carries (items.ts), and so are most.
 */
export const withWarnings = (warnings: WarnedCall[]): { warnings?: WarnedCall[] } =>
  warnings.length > 0 ? { warnings } : {}

/**
 * `of(key, id)`: the warnings of the calls that made (or named) that id, newest call first. The
 * journal is read at the first lookup, once per list answered.
 */
export function warnedCalls(store: Pick<Store, 'requests'>, appKey: string) {
  let byId: Map<string, WarnedCall[]> | undefined
  function read(): Map<string, WarnedCall[]> {
    const map = new Map<string, WarnedCall[]>()
    for (const r of store.requests.list(appKey, { warning: 'any', limit: WARNED_READ })) {
      if (r.warnings === null || r.warnings.length === 0 || r.ids === null) continue
      const warned = r.warnings.map(w => ({ ...w, request_seq: r.seq }))
      for (const key of ['msg_id', 'schedule_id'] as const)
        for (const id of r.ids[key] ?? []) {
          const known = map.get(`${key}:${id}`)
          if (known) known.push(...warned)
          else map.set(`${key}:${id}`, [...warned])
        }
    }
    return map
  }
  return (key: MadeId, id: string | null): WarnedCall[] => {
    if (id === null) return []
    byId ??= read()
    return byId.get(`${key}:${id}`) ?? []
  }
}

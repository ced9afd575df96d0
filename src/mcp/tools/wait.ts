import { z } from 'zod'
import type { Transport } from '../../../client/src/http.js'
import { firstAfter, MAX_WAIT_MS, readList } from '../../../client/src/lists.js'
import { afterArg } from '../tool.js'

// Waiting for the next item of a list, as the typed client's `next…()` does (client/src/lists.ts:
// `after=` the seq seen, `wait=` held by the sandbox, never polled), and when nothing matching
// came, what did come instead: the test waited for a text to 13800138000, and one went to 1390….

/** How many of what did arrive a wait that found nothing shows. */
const ARRIVED_SHOWN = 10

export const waitArgs = {
  after: afterArg.describe(
    'Only items with a larger seq (a `seq` or `next_after` you saw). Without it: the newest matching item already there, else the first to arrive.',
  ),
  timeout_ms: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .default(5_000)
    .describe(`Real milliseconds to wait, at most ${MAX_WAIT_MS} (the sandbox holds a request no longer).`),
}

/** What a wait answers: the item, or nothing and what arrived meanwhile. */
export const waitAnswer = <T extends z.ZodType>(item: T) => ({
  found: item.nullable().describe('The first matching item, or null when none came in time.'),
  arrived: z
    .array(item)
    .describe(
      `When none matched: what did arrive after \`after\`, whatever its filters (at most ${ARRIVED_SHOWN}).`,
    ),
  next_after: z.number().describe('Pass it as `after` to wait for the next one.'),
  waited_ms: z.number(),
})

export interface Waited<T> {
  found: T | null
  arrived: T[]
  next_after: number
  waited_ms: number
}

/** The first item of `list` matching `filter` after `after` (or the newest one, without), waiting up to `ms`. */
export async function waitFor<T extends { seq: number }>(
  http: Transport,
  list: { path: string; key: string },
  filter: object,
  after: number | undefined,
  ms: number,
): Promise<Waited<T>> {
  const started = Date.now()
  let from = after
  if (from === undefined) {
    const page = await readList<Record<string, unknown>>(http, list.path, { ...filter, limit: 1 })
    const newest = (page[list.key] as T[] | undefined)?.[0]
    if (newest) return { found: newest, arrived: [], next_after: newest.seq, waited_ms: 0 }
    from = page.next_after as number
  }
  const found = await firstAfter<T>(http, list.path, list.key, filter, from, ms)
  const waited_ms = Date.now() - started
  if (found) return { found, arrived: [], next_after: found.seq, waited_ms }
  const page = await readList<Record<string, unknown>>(http, list.path, { after: from, limit: ARRIVED_SHOWN })
  const arrived = ((page[list.key] as T[] | undefined) ?? []).slice().reverse()
  return { found: null, arrived, next_after: page.next_after as number, waited_ms }
}

/** The text of a wait: the item, or that none came and what did. */
export function waitedText<T>(
  w: Waited<T>,
  what: string,
  filter: object,
  ms: number,
  line: (item: T) => string,
): string {
  if (w.found) return `${line(w.found)}\nnext_after ${w.next_after}`
  const arrived =
    w.arrived.length === 0
      ? 'nothing else arrived either'
      : `arrived meanwhile (not matching):\n${w.arrived.map(line).join('\n')}`
  return `no ${what} matching ${JSON.stringify(filter)} within ${ms} ms; ${arrived}\nnext_after ${w.next_after}`
}

import { z } from 'zod'
import type { SandboxClient } from '../../../client/src/client.js'
import type { Transport } from '../../../client/src/http.js'
import { firstAfter, MAX_WAIT_MS, readList } from '../../../client/src/lists.js'
import { afterArg, appKeyArg, defined, limitArg, type Tool, timeArg, tool } from '../tool.js'

// The tools over the control plane's lists (texts, pushes, the journal): reading one, and waiting
// for its next item as the typed client's `next…()` does (client/src/lists.ts: `after=` the seq
// seen, `wait=` held by the sandbox, never polled), and when nothing matching came, what did come
// instead: the test waited for a text to 13800138000, and one went to 1390….

/** How many of what did arrive a wait that found nothing shows. */
const ARRIVED_SHOWN = 10

const waitArgs = {
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

interface Waited<T> {
  found: T | null
  arrived: T[]
  next_after: number
  waited_ms: number
}

/** The first item of `list` matching `filter` after `after` (or the newest one, without), waiting up to `ms`. */
async function waitFor<T extends { seq: number }>(
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

/** What one list is to its tools: where it is, its items, its filters, how an item reads. */
interface ListSpec<T extends { seq: number }> {
  list: { path: string; key: string }
  /** What one item is called, and several (`text`, `texts`), in the text. */
  one: string
  many: string
  item: z.ZodType<T>
  filter: z.ZodRawShape
  line(item: T): string
}

type ListArgs = { app_key?: string; after?: number; timeout_ms: number } & Record<string, unknown>

/** `list_…`: the list's newest items, filtered, read as the typed client reads it. */
export function listTool<T extends { seq: number }>(
  spec: ListSpec<T> & {
    name: string
    title: string
    description: string
    /** The time its items carry, for `since` and `until`. */
    when: string
    read(client: SandboxClient, filter: object): Promise<object>
  },
): Tool {
  return tool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: {
      ...appKeyArg,
      ...spec.filter,
      after: afterArg,
      since: timeArg(`${spec.when} at or after`),
      until: timeArg(`${spec.when} before`),
      limit: limitArg(1000, 20),
    },
    output: { [spec.list.key]: z.array(spec.item), next_after: z.number() },
    annotations: { readOnlyHint: true },
    run: async (s, { app_key, ...filter }) =>
      (await spec.read(s.app(app_key as string | undefined).client, defined(filter))) as never,
    text: page => {
      const items = page[spec.list.key] as T[]
      return items.length === 0
        ? `no ${spec.many} match; next_after ${page.next_after}`
        : `${items.map(spec.line).join('\n')}\nnext_after ${page.next_after}`
    },
  })
}

/** `wait_for_…`: the next item of the list matching the filters, or what arrived instead. */
export function waitTool<T extends { seq: number }>(
  spec: ListSpec<T> & {
    name: string
    title: string
    description: string
    /** How the item found reads, when it says more than a line (a request's reason and bodies). */
    foundLine?(item: T): string
  },
): Tool {
  const found = spec.foundLine ?? spec.line
  return tool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: { ...appKeyArg, ...spec.filter, ...waitArgs },
    output: {
      found: spec.item.nullable().describe('The first matching item, or null when none came in time.'),
      arrived: z
        .array(spec.item)
        .describe(
          `When none matched: what did arrive after \`after\`, whatever its filters (at most ${ARRIVED_SHOWN}).`,
        ),
      next_after: z.number().describe('Pass it as `after` to wait for the next one.'),
      waited_ms: z.number(),
    },
    annotations: { readOnlyHint: true },
    run: async (s, args) => {
      const { app_key, after, timeout_ms, ...filter } = args as ListArgs
      return waitFor<T>(s.app(app_key).http, spec.list, defined(filter), after, timeout_ms) as never
    },
    text: (w, args) => {
      const { app_key: _, after: __, timeout_ms, ...filter } = args as ListArgs
      const waited = w as unknown as Waited<T>
      if (waited.found) return `${found(waited.found)}\nnext_after ${waited.next_after}`
      const arrived =
        waited.arrived.length === 0
          ? 'nothing else arrived either'
          : `arrived meanwhile (not matching):\n${waited.arrived.map(spec.line).join('\n')}`
      return `no ${spec.one} matching ${JSON.stringify(defined(filter))} within ${timeout_ms} ms; ${arrived}\nnext_after ${waited.next_after}`
    },
  })
}

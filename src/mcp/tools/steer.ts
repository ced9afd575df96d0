import { z } from 'zod'
import { type Shape, shapes } from '../shapes.js'
import { appKeyArg, defined, oneLine, tool } from '../tool.js'

// What the test decides in place of the real service: the app's clock (and what falls due as it
// moves), and failures on purpose (docs/control-plane.md "The clock", "Fault injection").

/** Events that say the move itself, not what fell due on the way. */
const THE_MOVE = new Set(['request.completed', 'clock.moved'])
/** How many of what fell due the answer shows. */
const FELL_DUE_SHOWN = 100

const ahead = (ms: number) => {
  if (ms < 60_000) return `${Math.floor(ms / 1000)} s`
  const min = Math.floor(ms / 60_000)
  const [d, h, m] = [Math.floor(min / 1440), Math.floor((min % 1440) / 60), min % 60]
  return [d && `${d} day${d > 1 ? 's' : ''}`, h && `${h} h`, `${m} min`].filter(Boolean).join(' ')
}

export const advanceClock = tool({
  name: 'advance_clock',
  title: 'Move the app’s clock',
  description:
    'Moves the app’s clock forward (by ms, or to a time) and runs what falls due on the way — scheduled texts, delivery reports, reviews, callbacks — before answering: use it instead of sleeping.',
  input: {
    ...appKeyArg,
    ms: z.number().int().min(0).optional().describe('Move forward by this many milliseconds.'),
    to: z
      .union([z.string(), z.number()])
      .optional()
      .describe('Or move to this time: ISO-8601 or epoch milliseconds (never back).'),
  },
  output: {
    now: z.number().describe('The app’s time now, epoch milliseconds.'),
    now_iso: z.string(),
    offset_ms: z.number().describe('How far ahead of real time the app’s clock is.'),
    fell_due: z
      .array(shapes.event)
      .describe(`What the move made happen, as events, oldest first (at most ${FELL_DUE_SHOWN}).`),
  },
  annotations: {},
  run: async (s, { app_key, ms, to }) => {
    const { client, http } = s.app(app_key)
    // Everything after this seq was made by the move (or by the app meanwhile).
    const mark = await client.mark()
    const set = typeof to === 'number' ? new Date(to).toISOString() : to
    // Both or neither are the control plane's to refuse, saying which (400 90020).
    const clock = await http.json<Shape<'clock'>>('POST', '/_sandbox/clock', {
      body: defined({ advance_ms: ms, set }),
    })
    const { events } = await http.json<{ events: Array<Shape<'event'>> }>('GET', '/_sandbox/events', {
      query: { after: mark, limit: FELL_DUE_SHOWN },
    })
    const fell_due = events.filter(e => !THE_MOVE.has(e.type)).reverse()
    return {
      now: clock.now,
      now_iso: new Date(clock.now).toISOString(),
      offset_ms: clock.offset_ms,
      fell_due,
    }
  },
  text: c =>
    `the app's clock is now ${c.now_iso} (${ahead(c.offset_ms)} ahead of real time); ` +
    (c.fell_due.length === 0
      ? 'nothing fell due on the way'
      : `fell due on the way:\n${c.fell_due.map(e => `#${e.seq} ${e.type} ${oneLine(e.data, 160)}`).join('\n')}`),
})

const faultLine = (f: Shape<'fault'>) =>
  `fault #${f.id}: ${f.method ?? 'any method'} ${f.path}${f.match ? ` for ${JSON.stringify(f.match)}` : ''} → ` +
  `${f.code ?? 'no error'}${f.status ? ` (HTTP ${f.status})` : ''}${f.message ? ` "${f.message}"` : ''}` +
  `${f.delay_ms ? ` after ${f.delay_ms} ms` : ''}, ${f.remaining} more time${f.remaining === 1 ? '' : 's'}`

export const armFault = tool({
  name: 'arm_fault',
  title: 'Arm a fault',
  description:
    'Makes the next calls of the app to a /v1 or /v3 path fail with a vendor error code (or answer slowly), before anything is stored: use it to test error handling and retries.',
  input: {
    ...appKeyArg,
    path: z
      .string()
      .optional()
      .describe(
        'A path under /v1 or /v3 (/v1/codes), a route pattern (/v1/codes/:msg_id/valid), or * for every call (the default).',
      ),
    method: z.string().optional().describe('Only this method (any the path answers, when left out).'),
    code: z
      .number()
      .int()
      .optional()
      .describe(
        'The vendor’s error code to answer, e.g. 50019 (JSMS server error), 2002 (JPush rate limit).',
      ),
    status: z.number().int().optional().describe('The HTTP status: the code’s documented one unless given.'),
    message: z.string().optional().describe('The message: the code’s documented one unless given.'),
    delay_ms: z
      .number()
      .int()
      .optional()
      .describe('Real time to hold the request first (at most 60000); alone, it only slows calls down.'),
    times: z.number().int().optional().describe('How many calls it fails (1 by default).'),
    match: z
      .object({ mobile: z.string().optional(), registration_id: z.string().optional() })
      .optional()
      .describe(
        'Only calls naming this recipient: {"mobile"} on /v1, {"registration_id"} on /v3 (exactly one).',
      ),
  },
  output: shapes.fault.shape,
  annotations: {},
  run: (s, { app_key, match, ...fault }) =>
    s
      .app(app_key)
      .client.faults.arm({ ...defined(fault), ...(match ? { match: defined(match) as never } : {}) }),
  text: f => `armed ${faultLine(f)}`,
})

export const clearFaults = tool({
  name: 'clear_faults',
  title: 'Disarm every fault',
  description: 'Disarms every fault armed for the app: use it when a test is done with failures.',
  input: { ...appKeyArg },
  output: { cleared: z.number() },
  annotations: { destructiveHint: true, idempotentHint: true },
  run: async (s, { app_key }) => ({ cleared: await s.app(app_key).client.faults.disarm() }),
  text: ({ cleared }) => `disarmed ${cleared} fault${cleared === 1 ? '' : 's'}`,
})

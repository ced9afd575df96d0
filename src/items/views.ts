import type { z } from 'zod'
import type { LoggedCallback } from '../store/callbacks/outbox.js'
import type { JournaledRequest } from '../store/events/requests.js'
import { iso, isoOrNull } from '../time.js'
import type { items } from './items.js'

// How each item of the control plane's lists (items.ts) is made from the store's rows. An event
// of the stream carries the same item as its data.

type Item<K extends keyof typeof items> = z.input<(typeof items)[K]>

export const requestItem = (r: JournaledRequest): Item<'request'> => ({
  seq: r.seq,
  at: iso(r.at),
  real_at: iso(r.realAt),
  method: r.method,
  path: r.path,
  query: r.query,
  surface: r.surface,
  status: r.status,
  code: r.code,
  message: r.message,
  reason: r.reason,
  ids: r.ids ?? {},
  duration_ms: r.durationMs,
  client: r.client,
  user_agent: r.userAgent,
  operator: r.operator,
  request_body: r.requestBody,
  answer_body: r.answerBody,
  warnings: r.warnings === null ? [] : [...r.warnings],
})

export const callbackItem = (c: LoggedCallback): Item<'callback'> => ({
  seq: c.seq,
  id: c.id,
  type: c.type,
  data: c.data,
  url: c.url,
  state: c.state,
  attempts: c.log.map(a => ({
    attempt: a.attempt,
    url: a.url,
    at: iso(a.at),
    status_code: a.statusCode,
    error: a.error,
  })),
  next_attempt_at: isoOrNull(c.nextAttemptAt),
  created_at: iso(c.createdAt),
})

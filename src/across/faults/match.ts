import type { FastifyRequest } from 'fastify'
import { nationalMobile } from '../../mobile.js'
import { isObject } from '../../push/values.js'

/** A fault's `match`: only requests naming this recipient fail (one key, README "Fault injection"). */
export type FaultMatch = { mobile: string } | { registration_id: string }

/** The recipients a request names, read leniently from what it sent (the handler judges the rest). */
export interface Named {
  mobiles: string[]
  /** `recipients` is a list (the batch sends and batch schedules): a match fails one recipient. */
  batch: boolean
  rids: string[]
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined
const mobileOf = (v: unknown): string[] => {
  const t = text(v)
  return t === undefined ? [] : [nationalMobile(t) ?? t.trim()]
}
const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).map(text).filter((t): t is string => t !== undefined)

/**
 * The mobiles of a /v1 body: `mobile` (codes, voice codes, messages, single schedules) and each
 * `recipients[].mobile` (batches). The registration_ids of a /v3 request: the path's
 * `:registration_id`, the push audience's `registration_id`, and `registration_ids` (a list on
 * /v3/devices/status, `{add, remove}` on tags and aliases). Whom an alias, tag or segment reaches
 * is not read: a fault matches what the request names.
 */
export function namedBy(req: FastifyRequest): Named {
  const body = isObject(req.body) ? req.body : {}
  const params = (req.params ?? {}) as Record<string, unknown>
  const recipients = body.recipients
  const batch = Array.isArray(recipients)
  const mobiles = [
    ...mobileOf(body.mobile),
    ...(batch ? recipients.flatMap(r => (isObject(r) ? mobileOf(r.mobile) : [])) : []),
  ]
  const audience = isObject(body.audience) ? body.audience : {}
  const ids = body.registration_ids
  const rids = [
    ...list(params.registration_id),
    ...(audience.registration_id === undefined ? [] : list(audience.registration_id)),
    ...(Array.isArray(ids) ? list(ids) : isObject(ids) ? [...list(ids.add), ...list(ids.remove)] : []),
  ]
  return { mobiles, batch, rids }
}

/** Whether the request names the fault's recipient. */
export function names(named: Named, match: FaultMatch): boolean {
  return 'mobile' in match ? named.mobiles.includes(match.mobile) : named.rids.includes(match.registration_id)
}

import { z } from 'zod'
import { field } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { isIntIn, isObject, type Json } from '../values.js'

// A push's `callback` as its body carries it (jpush-api.md §5.1: url, params, type bits 1
// delivered, 2 clicked, 4 not delivered, 8 push succeeded). What is called back, and when, is
// delivery/callbacks.ts's: it reads the push as read here (send/ never imports delivery/).

export const CALLBACK_BITS = { delivered: 1, clicked: 2, notDelivered: 4, pushSucceeded: 8 } as const

/** Without `type`: delivery and click receipts, what the service mainly calls back (cav callback.go). */
const DEFAULT_TYPE = CALLBACK_BITS.delivered | CALLBACK_BITS.clicked

export interface PushCallback {
  url: string | undefined
  params: Json
  type: number
}

/** 1003 for anything malformed: the object, an http(s) URL, an object of params, a type of 1..15. */
export function parseCallback(value: unknown): PushCallback {
  if (!isObject(value)) throw pushErrors.invalid('callback must be an object')
  const { url, params, type } = value
  if (url !== undefined && url !== null && !isHttpUrl(url))
    throw pushErrors.invalid('callback.url is invalid')
  if (params !== undefined && params !== null && !isObject(params))
    throw pushErrors.invalid('callback.params must be an object')
  if (type !== undefined && type !== null && !isIntIn(type, 1, 15))
    throw pushErrors.invalid('callback.type is invalid')
  return {
    url: typeof url === 'string' ? url : undefined,
    params: isObject(params) ? params : {},
    type: typeof type === 'number' ? type : DEFAULT_TYPE,
  }
}

/** A push's `callback` as a field of its body (send/payload.ts). */
export const callback = field({
  read: parseCallback,
  schema: z
    .object({
      url: z.string().describe("http(s); absent: the app's callback_url.").optional(),
      params: z.record(z.string(), z.unknown()).describe('Echoed in each callback.').optional(),
      type: z
        .int()
        .min(1)
        .max(15)
        .describe('Bits: 1 delivered, 2 clicked, 4 not delivered, 8 push succeeded; default 3.')
        .optional(),
    })
    .describe('The events the sandbox POSTs to `url` (see GET /_sandbox/callbacks).')
    .optional(),
  errors: [pushErrors.invalid('callback.url is invalid')],
})

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 1000) return false
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

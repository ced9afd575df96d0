import type { App } from '../store/apps/apps.js'
import type { Callback } from '../store/callbacks/outbox.js'
import { callbackForm } from './signature.js'

/** What one attempt of a callback sends, and when the next comes after a failure. */
export interface Outgoing {
  url: string
  body: string
  headers: Record<string, string>
  /** Clock time before each retry; past the last, the callback is given up. */
  retryDelaysMs: readonly number[]
}

/** JSMS: after 3 min, 1 h, 12 h of clock time (jsms-api.md §6). */
const SMS_RETRY_DELAYS_MS = [3 * 60_000, 3600_000, 12 * 3600_000] as const
/**
 * A push's callback: 3 retries 50 s apart. JPush's callback page gives no schedule; this is the one
 * JiGuang documents for its other push callbacks (docs.jiguang.cn/jums/advanced/callback).
 */
const PUSH_RETRY_DELAYS_MS = [50_000, 50_000, 50_000] as const

const basic = (app: App) => `Basic ${Buffer.from(`${app.appKey}:${app.masterSecret}`).toString('base64')}`

/**
 * The request of one attempt, or undefined when there is nowhere to send it. JSMS callbacks are the
 * signed form of jsms-api.md §6 to the app's callback_url. A push's callback is JSON to its own
 * URL, with the app's Basic credentials: "the same authentication as the Push API" is what JPush's
 * callback page says its receipts carry (docs.jiguang.cn/jpush/server/push/rest_api_v3_callback).
 */
export function outgoing(app: App, c: Callback, at: number): Outgoing | undefined {
  if (c.type.startsWith('JPUSH_')) {
    if (!c.url) return undefined
    return {
      url: c.url,
      body: JSON.stringify(c.data),
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: basic(app) },
      retryDelaysMs: PUSH_RETRY_DELAYS_MS,
    }
  }
  const url = c.url ?? app.callbackUrl
  if (!url) return undefined
  return {
    url,
    body: callbackForm(app, c.type, c.data, at).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    retryDelaysMs: SMS_RETRY_DELAYS_MS,
  }
}

import { z } from 'zod'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import { listRoute } from '../../control/list-route.js'
import { mobileField } from '../../control/schemas.js'
import type { Hub } from '../../events/hub.js'
import { optionalString } from '../../http/body/fields.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { reportItems as items, replyItem } from './items.js'

/** Replies that unsubscribe a mobile from the app's marketing messages, as carriers do. */
const UNSUBSCRIBE_KEYWORDS = ['td', 't', '退订']

function isUnsubscribe(content: string): boolean {
  return UNSUBSCRIBE_KEYWORDS.includes(content.trim().toLowerCase())
}

const noContent = () => invalidField('content', 'must be a non-empty string')

function readContent(value: unknown): string {
  const content = optionalString(value, noContent)
  if (content === undefined || content.trim() === '') throw noContent()
  return content
}

export const schemas = {
  /** The mobile as /v1 reads it, in national form. */
  reply: z.object({ mobile: mobileField('mobile'), content: readBy(readContent) }),
  replied: z.object({
    mobile: z.string(),
    content: z.string(),
    reply_time: z.string(),
    unsubscribed: z.boolean(),
  }),
}

/**
 * Plays a handset: an uplink (MO) reply to the calling app, pulled or called back (SMS_REPLY), and
 * an sms.reply event; and lists the replies the app got.
 */
export function replyRoutes(deps: { store: Store; hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/sms/replies',
      summary: 'Uplink replies the app got',
      key: 'replies',
      filters: ['mobile'],
      item: items.reply,
      topic: 'replies',
      read: (appKey, q) => store.replies.list(appKey, q).map(replyItem),
    }),
    schemaRoute({
      method: 'POST',
      url: '/sms/replies',
      docs: {
        summary: "A handset's uplink reply to the app",
        description: `Pulled by GET /v1/reply, or called back (SMS_REPLY) when the app has a callback URL. A reply of TD, T
or 退订 unsubscribes the mobile from the app's marketing texts, as carriers do. Event: \`sms.reply\`.`,
        errors: [sandboxErrors.invalidField('"content": must be a non-empty string')],
      },
      schema: { body: schemas.reply, response: { 200: schemas.replied } },
      handler: async req => {
        const { mobile, content } = req.body
        const unsubscribed = isUnsubscribe(content)
        const reply = await store.write({ announces: ['sms.reply'] }, () => {
          const now = req.tenant.now()
          const { appKey } = req.tenant.app
          const stored = store.replies.insert({ appKey, mobile, content, replyAt: now })
          const data = replyItem(stored)
          store.events.append({ appKey, type: 'sms.reply', data, at: now, seq: stored.seq })
          if (unsubscribed) store.unsubscribed.add(appKey, mobile, now)
          if (store.apps.get(appKey)?.callbackUrl) {
            store.callbacks.enqueue(appKey, 'SMS_REPLY', { phone: mobile, replyTime: now, content }, now)
          }
          return stored
        })
        return { mobile, content, reply_time: new Date(reply.replyAt).toISOString(), unsubscribed }
      },
    }),
  ]
}

import type { AppDeps } from '../deps.js'
import { optionalString } from '../http/fields.js'
import type { RouteSpec } from '../http/routes.js'
import { readMobile } from '../sms/fields.js'
import { invalidControlBody, readControlBody } from './dialect.js'

/** Replies that unsubscribe a mobile from the app's marketing messages, as carriers do. */
const UNSUBSCRIBE_KEYWORDS = ['td', 't', '退订']

function isUnsubscribe(content: string): boolean {
  return UNSUBSCRIBE_KEYWORDS.includes(content.trim().toLowerCase())
}

/** Plays a handset: an uplink (MO) reply to the calling app, pulled or called back (SMS_REPLY). */
export function replyRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/sms/replies',
      handler: async req => {
        const body = readControlBody(req.body)
        const mobile = readMobile(body.mobile)
        const noContent = () => invalidControlBody('"content" must be a non-empty string')
        const content = optionalString(body.content, noContent)
        if (content === undefined || content.trim() === '') throw noContent()
        const unsubscribed = isUnsubscribe(content)
        const reply = await store.write(() => {
          const now = req.tenant.now()
          const { appKey } = req.tenant.app
          const stored = store.replies.insert({ appKey, mobile, content, replyAt: now })
          if (unsubscribed) store.unsubscribed.add(appKey, mobile, now)
          if (store.apps.get(appKey)?.callbackUrl) {
            store.callbacks.enqueue(appKey, 'SMS_REPLY', { phone: mobile, replyTime: now, content }, now)
          }
          return stored
        })
        return { mobile, content, reply_time: new Date(reply.replyAt).toISOString(), unsubscribed }
      },
    },
  ]
}

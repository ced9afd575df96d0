import type { AppDeps } from '../deps.js'
import { ApiError } from '../errors.js'
import { firstValue, limitOf } from '../http/query.js'
import type { RouteSpec } from '../http/routes.js'
import { nationalMobile } from '../sms/fields.js'

// Mobiles are stored in national form (sms/fields.ts); `+` in a query string arrives as a space.
const asStored = (mobile: string) => nationalMobile(mobile) ?? mobile.trim()

const noCode = () => new ApiError(404, 50016, 'no verification code for this mobile')

/** What the real service hides: the texts that went out and the codes in them. */
export function smsInspectRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/sms/messages',
      handler: async req => {
        const mobile = firstValue((req.query as Record<string, unknown>).mobile)
        const messages = store.messages.search(req.tenant.app.appKey, {
          mobile: mobile ? asStored(mobile) : undefined,
          msgId: firstValue((req.query as Record<string, unknown>).msg_id) || undefined,
          limit: limitOf((req.query as Record<string, unknown>).limit),
        })
        return {
          messages: messages.map(m => ({
            msg_id: m.msgId,
            mobile: m.mobile,
            kind: m.kind,
            temp_id: m.tempId,
            sign_id: m.signId,
            temp_para: m.tempPara,
            content: m.content,
            units: m.units,
            tag: m.tag,
            schedule_id: m.scheduleId,
            created_at: new Date(m.createdAt).toISOString(),
          })),
        }
      },
    },
    {
      method: 'GET',
      url: '/sms/codes/latest',
      handler: async req => {
        const mobile = firstValue((req.query as Record<string, unknown>).mobile)
        const code = mobile ? store.codes.latest(req.tenant.app.appKey, asStored(mobile)) : undefined
        if (!code) throw noCode()
        return {
          msg_id: code.msgId,
          mobile: code.mobile,
          code: code.code,
          expires_at: new Date(code.expiresAt).toISOString(),
          verified: code.verifiedAt !== null,
        }
      },
    },
  ]
}

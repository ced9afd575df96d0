import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { queryLimit, queryText, schemaRoute } from '../http/schema.js'
import { nationalMobile } from '../sms/fields.js'
import { sandboxErrors } from './errors.js'
import { iso } from './schemas.js'

// Mobiles are stored in national form (sms/fields.ts); `+` in a query string arrives as a space.
const asStored = (mobile: string) => nationalMobile(mobile) ?? mobile.trim()

const noCode = sandboxErrors.noCode

const schemas = {
  messagesQuery: z.object({ mobile: queryText, msg_id: queryText, limit: queryLimit }),
  messages: z.object({
    messages: z.array(
      z.object({
        msg_id: z.string(),
        mobile: z.string(),
        kind: z.string(),
        temp_id: z.number().nullable(),
        sign_id: z.number().nullable(),
        temp_para: z.record(z.string(), z.string()).nullable(),
        content: z.string(),
        units: z.number(),
        tag: z.string().nullable(),
        schedule_id: z.string().nullable(),
        created_at: z.string(),
      }),
    ),
  }),
  codeQuery: z.object({ mobile: queryText }),
  code: z.object({
    msg_id: z.string(),
    mobile: z.string(),
    code: z.string(),
    expires_at: z.string(),
    verified: z.boolean(),
  }),
}

/** What the real service hides: the texts that went out and the codes in them. */
export function smsInspectRoutes(deps: Pick<AppDeps, 'store'>): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/sms/messages',
      schema: { querystring: schemas.messagesQuery, response: { 200: schemas.messages } },
      handler: async req => {
        const { mobile, msg_id: msgId, limit } = req.query
        const messages = store.messages.search(req.tenant.app.appKey, {
          mobile: mobile ? asStored(mobile) : undefined,
          msgId: msgId || undefined,
          limit,
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
            created_at: iso(m.createdAt),
          })),
        }
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/sms/codes/latest',
      schema: { querystring: schemas.codeQuery, response: { 200: schemas.code } },
      handler: async req => {
        const { mobile } = req.query
        const code = mobile ? store.codes.latest(req.tenant.app.appKey, asStored(mobile)) : undefined
        if (!code) throw noCode()
        return {
          msg_id: code.msgId,
          mobile: code.mobile,
          code: code.code,
          expires_at: iso(code.expiresAt),
          verified: code.verifiedAt !== null,
        }
      },
    }),
  ]
}

import type { RouteSpec } from '../http/routes.js'
import { readRecipients, sendBatch } from './batch.js'
import type { SmsDeps } from './context.js'
import { smsErrors } from './errors.js'
import { optionalString, readBody, readMobile, readSignId, readTempId, readTempPara } from './fields.js'
import { SMS_LIMITS } from './limits.js'
import { deliver, renderTemplateMessage, resolveSign, resolveTemplate } from './send.js'

export function readTag(value: unknown): string | undefined {
  const tag = optionalString(value)
  if (tag !== undefined && [...tag].length > SMS_LIMITS.maxTagLength) throw smsErrors.invalidBody()
  return tag
}

export function messageRoutes(deps: SmsDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/messages',
      handler: async req => {
        const body = readBody(req.body)
        const mobile = readMobile(body.mobile)
        const tempId = readTempId(body.temp_id)
        const signId = readSignId(body.sign_id)
        const para = readTempPara(body.temp_para)
        const tag = readTag(body.tag)
        // Verification templates are allowed here: "custom verification code" sending (§2.4).
        const template = resolveTemplate(deps, req.tenant, tempId, [1, 2, 3])
        const sign = resolveSign(deps, req.tenant, signId)
        const content = renderTemplateMessage(deps, req.tenant, template, sign, para)
        const msgId = await store.write(() =>
          deliver(
            deps,
            req.tenant,
            { mobile, kind: 'template', template, sign, para, content, tag },
            req.tenant.now(),
          ),
        )
        return { msg_id: msgId }
      },
    },
    {
      method: 'POST',
      url: '/messages/batch',
      handler: async req => {
        const body = readBody(req.body)
        const tempId = readTempId(body.temp_id)
        const signId = readSignId(body.sign_id)
        const tag = readTag(body.tag)
        const recipients = readRecipients(body.recipients)
        const template = resolveTemplate(deps, req.tenant, tempId, [2, 3])
        const sign = resolveSign(deps, req.tenant, signId)
        return sendBatch(deps, req.tenant, { template, sign, tag, recipients })
      },
    },
  ]
}

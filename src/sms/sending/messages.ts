import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBody, readMessageTag, readMobile, readSignId, readTempId, readTempPara } from '../fields.js'
import { readRecipients, sendBatch } from './batch.js'
import { sendBatchDocs, sendMessageDocs } from './docs.js'
import { deliver, renderTemplateMessage, resolveSign, resolveTemplate } from './send.js'

export function messageRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/messages',
      docs: sendMessageDocs,
      handler: async req => {
        const body = readBody(req.body)
        const mobile = readMobile(body.mobile)
        const tempId = readTempId(body.temp_id)
        const signId = readSignId(body.sign_id)
        const para = readTempPara(body.temp_para)
        const tag = readMessageTag(body.tag)
        // Verification templates are allowed here: "custom verification code" sending (§2.4).
        const template = resolveTemplate(deps, req.tenant, tempId, [1, 2, 3])
        const sign = resolveSign(deps, req.tenant, signId)
        const content = renderTemplateMessage(deps, req.tenant, template, sign, para)
        // deliver refuses before it writes anything: no savepoint needed (writer.ts).
        const msgId = await store.write(
          () =>
            deliver(
              deps,
              req.tenant,
              { mobile, kind: 'template', template, sign, para, content, tag },
              req.tenant.now(),
            ),
          { checksFirst: true },
        )
        return { msg_id: msgId }
      },
    },
    {
      method: 'POST',
      url: '/messages/batch',
      docs: sendBatchDocs,
      handler: async req => {
        const body = readBody(req.body)
        const tempId = readTempId(body.temp_id)
        const signId = readSignId(body.sign_id)
        const tag = readMessageTag(body.tag)
        const recipients = readRecipients(body.recipients)
        const template = resolveTemplate(deps, req.tenant, tempId, [2, 3])
        const sign = resolveSign(deps, req.tenant, signId)
        return sendBatch(deps, req.tenant, { template, sign, tag, recipients })
      },
    },
  ]
}

import { isApiError } from '../errors.js'
import type { RouteSpec } from '../http/routes.js'
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

/** `recipients` of a batch: 50030 when empty, 50031 over 1000. */
export function readRecipients(value: unknown): unknown[] {
  if (value === undefined || value === null) throw smsErrors.recipientsIsEmpty()
  if (!Array.isArray(value)) throw smsErrors.invalidBody()
  if (value.length === 0) throw smsErrors.recipientsIsEmpty()
  if (value.length > SMS_LIMITS.maxRecipients) throw smsErrors.tooMuchRecipients()
  return value
}

export interface RecipientResult {
  msg_id?: string
  mobile: string
  error_code?: string
  error_message?: string
  temp_para?: Record<string, unknown>
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

/**
 * Validates and sends every recipient on its own: one bad number does not fail the others. A
 * number repeated inside the batch is a repeat send (50034). Answers in both shapes the clients
 * read: the documented `recipients`, and `failure_recipients` for the Java client (§2.5).
 */
async function sendBatch(
  deps: SmsDeps,
  tenant: import('../tenancy.js').Tenant,
  batch: {
    template: import('../store/templates.js').Template
    sign: import('../store/signs.js').Sign
    tag: string | undefined
    recipients: unknown[]
  },
) {
  const { store } = deps
  const seen = new Set<string>()
  type Planned = { mobile: string; para: Record<string, string>; content: string }
  const planned: Array<{ ok: Planned } | { error: RecipientResult }> = batch.recipients.map(raw => {
    const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
    const shownMobile = r.mobile === undefined || r.mobile === null ? '' : String(r.mobile)
    const shownPara = (r.temp_para && typeof r.temp_para === 'object' ? r.temp_para : {}) as Record<
      string,
      unknown
    >
    try {
      const mobile = readMobile(r.mobile)
      const para = readTempPara(r.temp_para)
      const content = renderTemplateMessage(deps, tenant, batch.template, batch.sign, para)
      if (seen.has(mobile)) throw smsErrors.repeatSend()
      seen.add(mobile)
      return { ok: { mobile, para, content } }
    } catch (err) {
      if (!isApiError(err)) throw err
      return { error: failure(err, shownMobile, shownPara) }
    }
  })
  const results = await store.write(() => {
    const now = tenant.now()
    return planned.map((p): RecipientResult => {
      if ('error' in p) return { ...p.error, msg_id: String(store.sequences.next('msg_id')) }
      const { mobile, para, content } = p.ok
      try {
        // Each recipient in its own savepoint: a refused one leaves no trace.
        const msgId = store.transaction(() =>
          deliver(
            deps,
            tenant,
            {
              mobile,
              kind: 'template',
              template: batch.template,
              sign: batch.sign,
              para,
              content,
              tag: batch.tag,
            },
            now,
          ),
        )
        return { msg_id: msgId, mobile }
      } catch (err) {
        if (!isApiError(err)) throw err
        return { ...failure(err, mobile, para), msg_id: String(store.sequences.next('msg_id')) }
      }
    })
  })
  const failures = results.filter(r => r.error_code !== undefined)
  return {
    success_count: results.length - failures.length,
    failure_count: failures.length,
    recipients: results,
    failure_recipients: failures.map(({ msg_id: _id, ...rest }) => rest),
  }
}

function failure(err: { code: number; message: string }, mobile: string, para: Record<string, unknown>) {
  return { error_code: String(err.code), error_message: err.message, mobile, temp_para: para }
}

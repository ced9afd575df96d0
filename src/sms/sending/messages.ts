import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { smsRules } from '../../advisor/sms.js'
import type { PipelineDeps } from '../../deps.js'
import { type ApiError, isApiError } from '../../errors.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Tenant } from '../../tenancy.js'
import { smsErrors } from '../errors.js'
import {
  mobile,
  msgIdAnswer,
  readMobile,
  readTempPara,
  recipients,
  signId,
  smsBody,
  tag,
  tempId,
  tempPara,
} from '../fields.js'
import {
  deliver,
  renderTemplateMessage,
  resolveSign,
  resolveTemplate,
  type SentSign as Sign,
  type SentTemplate as Template,
  templateSend,
} from './send.js'

// Template messages (jsms-api.md §2.4, §2.5): to one mobile, or one template to many recipients
// in one request (POST /v1/messages/batch, and the batch schedules), where each recipient is
// checked and sent on its own, so one bad number does not fail the others.

/** A recipient refused alone, as the answers show it: what the client sent, and why (a string code). */
export const failedRecipient = z.object({
  error_code: z.string(),
  error_message: z.string(),
  mobile: z.string(),
  temp_para: z.record(z.string(), z.string()),
})
export type RecipientFailure = z.input<typeof failedRecipient>

const batchAnswer = z.object({
  success_count: z.int(),
  failure_count: z.int(),
  recipients: z.array(
    z.union([
      z.object({ msg_id: z.string(), mobile: z.string() }),
      failedRecipient.extend({ msg_id: z.string() }),
    ]),
  ),
  failure_recipients: z.array(failedRecipient),
})

type RecipientResult = { msg_id: string; mobile: string } & Partial<RecipientFailure>

/** `raw` is the recipient as it came (`{mobile, temp_para}`, perhaps malformed). */
export function recipientFailure(err: ApiError, raw: unknown): RecipientFailure {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  return {
    error_code: String(err.code),
    error_message: err.message,
    // Echoed as given when it is a string or a number; never String() of an array or object, whose
    // text is its elements' and which, nested deep, overflows the stack.
    mobile: typeof r.mobile === 'string' || typeof r.mobile === 'number' ? String(r.mobile) : '',
    // As the client sent it (the document shows the strings the clients send).
    temp_para: (r.temp_para && typeof r.temp_para === 'object' ? r.temp_para : {}) as Record<string, string>,
  }
}

/**
 * One recipient of a batch, checked on its own: mobile, parameters, the rendered text, and the
 * same number twice in one batch (50034). Throws the recipient's ApiError.
 */
export function readRecipient(
  deps: PipelineDeps,
  tenant: Tenant,
  { template, sign }: { template: Template; sign: Sign },
  raw: unknown,
  seen: Set<string>,
): { mobile: string; para: Record<string, string>; content: string } {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const mobile = readMobile(r.mobile)
  const injected = tenant.recipientFault?.(mobile)
  if (injected) throw injected
  const para = readTempPara(r.temp_para)
  const content = renderTemplateMessage(deps, tenant, template, sign, para)
  if (seen.has(mobile))
    throw smsErrors.repeatSend().because(`mobile ${mobile} is a recipient twice in this batch`)
  seen.add(mobile)
  return { mobile, para, content }
}

/**
 * Validates and sends every recipient on its own: one bad number does not fail the others. A
 * number repeated inside the batch is a repeat send (50034). Answers in both shapes the clients
 * read: the documented `recipients`, and `failure_recipients` for the Java client (§2.5).
 */
async function sendBatch(
  deps: PipelineDeps,
  tenant: Tenant,
  batch: { template: Template; sign: Sign; tag: string | undefined; recipients: unknown[] },
): Promise<z.input<typeof batchAnswer>> {
  const { store } = deps
  const seen = new Set<string>()
  type Planned = ReturnType<typeof readRecipient>
  const planned: Array<{ ok: Planned } | { error: RecipientFailure }> = batch.recipients.map(raw => {
    try {
      return { ok: readRecipient(deps, tenant, batch, raw, seen) }
    } catch (err) {
      if (!isApiError(err)) throw err
      return { error: recipientFailure(err, raw) }
    }
  })
  const results = await store.write(() => {
    const now = tenant.now()
    return planned.map((p): RecipientResult => {
      if ('error' in p) return { ...p.error, msg_id: String(store.sequences.next('msg_id')) }
      const { mobile, para, content } = p.ok
      try {
        // A refused recipient leaves no trace: deliver refuses before it writes anything. (No
        // savepoint per recipient: SQLite would copy every page each one touches again.)
        const msgId = deliver(
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
        )
        return { msg_id: msgId, mobile }
      } catch (err) {
        if (!isApiError(err)) throw err
        const refused = recipientFailure(err, { mobile, temp_para: para })
        return { ...refused, msg_id: String(store.sequences.next('msg_id')) }
      }
    })
  })
  const failures = results.filter(r => r.error_code !== undefined)
  return {
    success_count: results.length - failures.length,
    failure_count: failures.length,
    recipients: results,
    failure_recipients: failures.map(({ msg_id: _id, ...rest }) => rest as RecipientFailure),
  }
}

export function messageRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    vendorRoute({
      method: 'POST',
      url: '/messages',
      summary: 'Send one template message (jsms-api.md §2.4)',
      reads: { body: smsBody({ mobile, temp_id: tempId, sign_id: signId, temp_para: tempPara, tag }) },
      checks: templateSend,
      answer: msgIdAnswer,
      handler: async (req, { body }) => {
        // Verification templates are allowed here: "custom verification code" sending (§2.4).
        const template = resolveTemplate(deps, req.tenant, body.temp_id, [1, 2, 3])
        const sign = resolveSign(deps, req.tenant, body.sign_id)
        const { mobile, temp_para: para, tag } = body
        const content = renderTemplateMessage(deps, req.tenant, template, sign, para)
        advise(req, deps.config, smsRules, {
          tempType: template.type,
          at: req.tenant.now(),
          timeZone: deps.config.timeZone,
        })
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
    }),
    vendorRoute({
      method: 'POST',
      url: '/messages/batch',
      summary: 'Send one template to many recipients (jsms-api.md §2.5)',
      description:
        'Recipients fail alone: `recipients` lists every one (failed ones with `error_code`, a string), ' +
        '`failure_recipients` repeats the failures as the Java client reads them.',
      reads: { body: smsBody({ temp_id: tempId, sign_id: signId, tag, recipients }) },
      // A recipient's own refusals (its text, its frequency, the money) answer in its entry.
      checks: templateSend,
      answer: batchAnswer,
      handler: async (req, { body }) => {
        const template = resolveTemplate(deps, req.tenant, body.temp_id, [2, 3])
        const sign = resolveSign(deps, req.tenant, body.sign_id)
        advise(req, deps.config, smsRules, {
          tempType: template.type,
          at: req.tenant.now(),
          timeZone: deps.config.timeZone,
        })
        return sendBatch(deps, req.tenant, { template, sign, tag: body.tag, recipients: body.recipients })
      },
    }),
  ]
}

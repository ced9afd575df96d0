import type { PipelineDeps } from '../../deps.js'
import { type ApiError, isApiError } from '../../errors.js'
import type { Sign } from '../../store/sms/signs.js'
import type { Template } from '../../store/sms/templates.js'
import type { Tenant } from '../../tenancy.js'
import { smsErrors } from '../errors.js'
import { readMobile, readTempPara } from '../fields.js'
import { SMS_LIMITS } from '../limits.js'
import { deliver, renderTemplateMessage } from './send.js'

// Many recipients in one request (POST /v1/messages/batch, and the batch schedules): each one is
// checked and sent on its own, so one bad number does not fail the others.

/** `recipients` of a batch: 50030 when empty, 50031 over 1000. */
export function readRecipients(value: unknown): unknown[] {
  if (value === undefined || value === null) throw smsErrors.recipientsIsEmpty()
  if (!Array.isArray(value)) throw smsErrors.invalidBody()
  if (value.length === 0) throw smsErrors.recipientsIsEmpty()
  if (value.length > SMS_LIMITS.maxRecipients) throw smsErrors.tooMuchRecipients()
  return value
}

/** A refused recipient of a batch, as the answers show it: what the client sent, and why. */
export interface RecipientFailure {
  error_code: string
  error_message: string
  mobile: string
  temp_para: Record<string, unknown>
}

export type RecipientResult = { msg_id?: string; mobile: string } & Partial<RecipientFailure>

/** `raw` is the recipient as it came (`{mobile, temp_para}`, perhaps malformed). */
export function recipientFailure(err: ApiError, raw: unknown): RecipientFailure {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  return {
    error_code: String(err.code),
    error_message: err.message,
    // Echoed as given when it is a string or a number; never String() of an array or object, whose
    // text is its elements' and which, nested deep, overflows the stack.
    mobile: typeof r.mobile === 'string' || typeof r.mobile === 'number' ? String(r.mobile) : '',
    temp_para: (r.temp_para && typeof r.temp_para === 'object' ? r.temp_para : {}) as Record<string, unknown>,
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
  if (seen.has(mobile)) throw smsErrors.repeatSend()
  seen.add(mobile)
  return { mobile, para, content }
}

/**
 * Validates and sends every recipient on its own: one bad number does not fail the others. A
 * number repeated inside the batch is a repeat send (50034). Answers in both shapes the clients
 * read: the documented `recipients`, and `failure_recipients` for the Java client (§2.5).
 */
export async function sendBatch(
  deps: PipelineDeps,
  tenant: Tenant,
  batch: {
    template: Template
    sign: Sign
    tag: string | undefined
    recipients: unknown[]
  },
) {
  const { store } = deps
  const seen = new Set<string>()
  type Planned = ReturnType<typeof readRecipient>
  const planned: Array<{ ok: Planned } | { error: RecipientResult }> = batch.recipients.map(raw => {
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
    failure_recipients: failures.map(({ msg_id: _id, ...rest }) => rest),
  }
}

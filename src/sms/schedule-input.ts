import { isApiError } from '../errors.js'
import type { Sign } from '../store/signs.js'
import type { Template } from '../store/templates.js'
import type { Tenant } from '../tenancy.js'
import { parseLocal } from '../time.js'
import type { SmsDeps } from './context.js'
import { smsErrors } from './errors.js'
import { type Body, readMobile, readSignId, readTempId, readTempPara } from './fields.js'
import { readRecipients, readTag } from './messages.js'
import { renderTemplateMessage, resolveSign, resolveTemplate } from './send.js'

// A scheduled task is validated like an immediate send when it is submitted (jsms-api.md §2.6):
// template, signature, parameters and recipients now; unsubscribes, frequency and balance when it
// fires (src/scheduler/fire-schedule.ts).

export interface RecipientFailure {
  error_code: string
  error_message: string
  mobile: string
  temp_para: Record<string, unknown>
}

export interface ScheduleInput {
  sendAt: number
  tempId: number
  signId: number | undefined
  tag: string | undefined
  recipients: Array<{ mobile: string; tempPara: Record<string, string> }>
  failures: RecipientFailure[]
}

/** `yyyy-MM-dd HH:mm:ss` in the configured zone, strictly after the app's now (50027). */
export function readSendTime(value: unknown, tenant: Tenant, timeZone: string): number {
  if (typeof value !== 'string') throw smsErrors.invalidSendTime()
  const at = parseLocal(value.trim(), timeZone)
  if (at === undefined || at <= tenant.now()) throw smsErrors.invalidSendTime()
  return at
}

interface Resolved {
  template: Template
  sign: Sign
}

function resolve(deps: SmsDeps, tenant: Tenant, tempId: number, signId: number | undefined, batch: boolean) {
  // Same template types as the immediate endpoints: /v1/messages takes all, the batch 2 and 3.
  const template = resolveTemplate(deps, tenant, tempId, batch ? [2, 3] : [1, 2, 3])
  const sign = resolveSign(deps, tenant, signId)
  return { template, sign }
}

/** The body of POST /v1/schedule and PUT /v1/schedule/{id}. */
export function readSingleSchedule(deps: SmsDeps, tenant: Tenant, body: Body): ScheduleInput {
  const sendAt = readSendTime(body.send_time, tenant, deps.config.timeZone)
  const mobile = readMobile(body.mobile)
  const tempId = readTempId(body.temp_id)
  const signId = readSignId(body.sign_id)
  const tempPara = readTempPara(body.temp_para)
  const tag = readTag(body.tag)
  const { template, sign } = resolve(deps, tenant, tempId, signId, false)
  renderTemplateMessage(deps, tenant, template, sign, tempPara)
  return { sendAt, tempId, signId, tag, recipients: [{ mobile, tempPara }], failures: [] }
}

/**
 * The body of POST /v1/schedule/batch and PUT /v1/schedule/batch/{id}. Each recipient is checked
 * on its own: the bad ones are answered in `failure_recipients` and left out of the task.
 */
export function readBatchSchedule(deps: SmsDeps, tenant: Tenant, body: Body): ScheduleInput {
  const sendAt = readSendTime(body.send_time, tenant, deps.config.timeZone)
  const tempId = readTempId(body.temp_id)
  const signId = readSignId(body.sign_id)
  const tag = readTag(body.tag)
  const list = readRecipients(body.recipients)
  const resolved = resolve(deps, tenant, tempId, signId, true)
  const seen = new Set<string>()
  const recipients: ScheduleInput['recipients'] = []
  const failures: RecipientFailure[] = []
  for (const raw of list) {
    const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
    try {
      recipients.push(readRecipient(deps, tenant, resolved, r, seen))
    } catch (err) {
      if (!isApiError(err)) throw err
      failures.push({
        error_code: String(err.code),
        error_message: err.message,
        mobile: r.mobile === undefined || r.mobile === null ? '' : String(r.mobile),
        temp_para: (r.temp_para && typeof r.temp_para === 'object' ? r.temp_para : {}) as Record<
          string,
          unknown
        >,
      })
    }
  }
  return { sendAt, tempId, signId, tag, recipients, failures }
}

function readRecipient(
  deps: SmsDeps,
  tenant: Tenant,
  { template, sign }: Resolved,
  r: Record<string, unknown>,
  seen: Set<string>,
) {
  const mobile = readMobile(r.mobile)
  const tempPara = readTempPara(r.temp_para)
  renderTemplateMessage(deps, tenant, template, sign, tempPara)
  // The same number twice in one task is a repeat send (50034), as in /v1/messages/batch.
  if (seen.has(mobile)) throw smsErrors.repeatSend()
  seen.add(mobile)
  return { mobile, tempPara }
}

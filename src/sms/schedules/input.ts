import type { PipelineDeps } from '../../deps.js'
import { isApiError } from '../../errors.js'
import type { Tenant } from '../../tenancy.js'
import { parseLocal } from '../../time.js'
import { smsErrors } from '../errors.js'
import { type Body, readMessageTag, readMobile, readSignId, readTempId, readTempPara } from '../fields.js'
import { type RecipientFailure, readRecipient, readRecipients, recipientFailure } from '../sending/batch.js'
import { renderTemplateMessage, resolveSign, resolveTemplate } from '../sending/send.js'

// A scheduled task is validated like an immediate send when it is submitted (jsms-api.md §2.6):
// template, signature, parameters and recipients now; unsubscribes, frequency and balance when it
// fires (src/sms/schedules/fire.ts).

export interface ScheduleInput {
  sendAt: number
  tempId: number
  signId: number | undefined
  tag: string | undefined
  recipients: Array<{ mobile: string; tempPara: Record<string, string> }>
  failures: RecipientFailure[]
}

/** `yyyy-MM-dd HH:mm:ss` in the configured zone, strictly after the app's now (50027). */
function readSendTime(value: unknown, tenant: Tenant, timeZone: string): number {
  if (typeof value !== 'string') throw smsErrors.invalidSendTime()
  const at = parseLocal(value.trim(), timeZone)
  if (at === undefined || at <= tenant.now()) throw smsErrors.invalidSendTime()
  return at
}

function resolve(
  deps: PipelineDeps,
  tenant: Tenant,
  tempId: number,
  signId: number | undefined,
  batch: boolean,
) {
  // Same template types as the immediate endpoints: /v1/messages takes all, the batch 2 and 3.
  const template = resolveTemplate(deps, tenant, tempId, batch ? [2, 3] : [1, 2, 3])
  const sign = resolveSign(deps, tenant, signId)
  return { template, sign }
}

/** The body of POST /v1/schedule and PUT /v1/schedule/{id}. */
export function readSingleSchedule(deps: PipelineDeps, tenant: Tenant, body: Body): ScheduleInput {
  const sendAt = readSendTime(body.send_time, tenant, deps.config.timeZone)
  const mobile = readMobile(body.mobile)
  const tempId = readTempId(body.temp_id)
  const signId = readSignId(body.sign_id)
  const tempPara = readTempPara(body.temp_para)
  const tag = readMessageTag(body.tag)
  const { template, sign } = resolve(deps, tenant, tempId, signId, false)
  renderTemplateMessage(deps, tenant, template, sign, tempPara)
  return { sendAt, tempId, signId, tag, recipients: [{ mobile, tempPara }], failures: [] }
}

/**
 * The body of POST /v1/schedule/batch and PUT /v1/schedule/batch/{id}. Each recipient is checked
 * on its own: the bad ones are answered in `failure_recipients` and left out of the task.
 */
export function readBatchSchedule(deps: PipelineDeps, tenant: Tenant, body: Body): ScheduleInput {
  const sendAt = readSendTime(body.send_time, tenant, deps.config.timeZone)
  const tempId = readTempId(body.temp_id)
  const signId = readSignId(body.sign_id)
  const tag = readMessageTag(body.tag)
  const list = readRecipients(body.recipients)
  const resolved = resolve(deps, tenant, tempId, signId, true)
  const seen = new Set<string>()
  const recipients: ScheduleInput['recipients'] = []
  const failures: RecipientFailure[] = []
  for (const raw of list) {
    try {
      const { mobile, para } = readRecipient(deps, tenant, resolved, raw, seen)
      recipients.push({ mobile, tempPara: para })
    } catch (err) {
      if (!isApiError(err)) throw err
      failures.push(recipientFailure(err, raw))
    }
  }
  return { sendAt, tempId, signId, tag, recipients, failures }
}

import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { smsErrors as e } from '../errors.js'
import { failedRecipient, mobile, recipients, sendTime, signId, tempId, tempPara } from '../vocabulary.js'

// Scheduled messages, delivery reports and replies (jsms-api.md §2.6, §2.8).

const scheduleId = z.object({ schedule_id: z.string().describe('The task id (a UUID).') })
const single = z.object({
  send_time: sendTime,
  mobile,
  temp_id: tempId,
  sign_id: signId.optional(),
  temp_para: tempPara.optional(),
})
const batch = z.object({
  send_time: sendTime,
  temp_id: tempId,
  sign_id: signId.optional(),
  tag: z.string().max(10).optional(),
  recipients,
})
const batchAnswer = scheduleId.extend({
  success_count: z.int(),
  failure_count: z.int(),
  failure_recipients: z.array(failedRecipient),
})
/** A task is checked like an immediate send when it is submitted. */
const submitted = [
  e.invalidSendTime(),
  e.missingTempId(),
  e.invalidTempId(),
  e.templateAuditing(),
  e.templateNotPass(),
  e.wrongTemplateType(),
  e.parametersNotAllReplaced(),
  e.signaturesNotExist(),
]
const modifying = [e.invalidScheduleId(), e.wrongScheduleStatus()]

export const createScheduleDocs: RouteDocs = {
  summary: 'Schedule one template message (jsms-api.md §2.6)',
  body: single,
  answers: { 200: scheduleId },
  errors: [e.missingMobile(), e.invalidMobile(), ...submitted],
}

export const modifyScheduleDocs: RouteDocs = {
  ...createScheduleDocs,
  summary: 'Replace a single task before it runs; it keeps its id (jsms-api.md §2.6)',
  params: scheduleId,
  errors: [...modifying, e.missingMobile(), e.invalidMobile(), ...submitted],
}

export const createBatchScheduleDocs: RouteDocs = {
  summary: 'Schedule a batch (jsms-api.md §2.6)',
  body: batch,
  answers: { 200: batchAnswer },
  errors: [e.recipientsIsEmpty(), e.tooMuchRecipients(), ...submitted],
}

export const modifyBatchScheduleDocs: RouteDocs = {
  ...createBatchScheduleDocs,
  summary: 'Replace a batch task before it runs; it keeps its id (jsms-api.md §2.6)',
  params: scheduleId,
  errors: [...modifying, e.recipientsIsEmpty(), e.tooMuchRecipients(), ...submitted],
}

export const readScheduleDocs: RouteDocs = {
  summary: 'Read a task, single or batch (jsms-api.md §2.6)',
  params: scheduleId,
  answers: {
    200: scheduleId.extend({
      send_time: z.string(),
      temp_id: z.int(),
      recipients: z.array(
        z.object({
          msg_id: z.string().describe('Allocated at submission; the id of the message it sends.'),
          mobile: z.string(),
          temp_para: z.record(z.string(), z.string()),
          error_code: z.string().describe('Only for a recipient refused when the task ran.').optional(),
          error_message: z.string().optional(),
        }),
      ),
    }),
  },
  errors: [e.invalidScheduleId()],
}

export const deleteScheduleDocs: RouteDocs = {
  summary: 'Delete a task before it runs (jsms-api.md §2.6)',
  params: scheduleId,
  answers: { 200: { description: 'Deleted: an empty body.', media: null } },
  errors: modifying,
}

const pulls =
  'Each record once, at most 500 a call, at most one call per 5 s per appKey; an app with a ' +
  'callback URL gets its records there instead (50202).'

export const reportDocs: RouteDocs = {
  summary: 'Pull delivery reports (jsms-api.md §2.8)',
  description: pulls,
  answers: {
    200: z.array(
      z.object({
        msgId: z.string(),
        phone: z.string(),
        receiveTime: z.int().describe('Epoch milliseconds, app clock.'),
        status: z.int().describe('4001 delivered; 4002–4010, 4100 failures (jsms-api.md §2.8).'),
      }),
    ),
  },
  errors: [e.pullNotAllow(), e.pullOutOfFrequency()],
}

export const replyDocs: RouteDocs = {
  summary: 'Pull the replies handsets sent (jsms-api.md §2.8)',
  description: pulls,
  answers: { 200: z.array(z.object({ phone: z.string(), replyTime: z.int(), content: z.string() })) },
  errors: [e.pullNotAllow(), e.pullOutOfFrequency()],
}

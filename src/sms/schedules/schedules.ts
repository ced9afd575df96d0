import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { smsRules } from '../../advisor/sms.js'
import { smsScheduleChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { isApiError } from '../../errors.js'
import { emptyOk } from '../../http/empty-reply.js'
import { params, text } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Tenant } from '../../tenancy.js'
import { formatLocal } from '../../time.js'
import { smsErrors as e } from '../errors.js'
import { mobile, recipients, sendTime, signId, smsBody, tag, tempId, tempPara } from '../fields.js'
import {
  failedRecipient,
  type RecipientFailure,
  readRecipient,
  recipientFailure,
  refusals,
  renderTemplateMessage,
  resolveSign,
  resolveTemplate,
} from '../sending/index.js'
import type { NewSchedule, Schedule } from './table.js'

// Scheduled messages (jsms-api.md §2.6). A task is validated like an immediate send when it is
// submitted: template, signature, parameters and recipients now; unsubscribes, frequency and
// balance when it fires (fire.ts, through the scheduler).

interface ScheduleInput {
  sendAt: number
  tempId: number
  signId: number | undefined
  tag: string | undefined
  recipients: Array<{ mobile: string; tempPara: Record<string, string> }>
  failures: RecipientFailure[]
}

const scheduleId = z.object({ schedule_id: z.string().describe('The task id (a UUID).') })
const scheduleIdParams = params({ schedule_id: text('The task id (a UUID).') })
const batchAnswer = scheduleId.extend({
  success_count: z.int(),
  failure_count: z.int(),
  failure_recipients: z.array(failedRecipient),
})
const taskAnswer = scheduleId.extend({
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
})

/** What a task is checked for when it is submitted, after its body: as an immediate send. */
const submitted = [...refusals.template, ...refusals.sign, ...refusals.render]
/** A task this app may still change: 50028 unknown (or of the other kind), 50029 sent or deleted. */
const changing = [e.invalidScheduleId(), e.wrongScheduleStatus()]

const scheduled = (id: string) => ({ schedule_id: id })
const batchScheduled = (id: string, input: ScheduleInput) => ({
  schedule_id: id,
  success_count: input.recipients.length,
  failure_count: input.failures.length,
  failure_recipients: input.failures,
})

export function scheduleRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  // The two bodies; send_time is read in the configured zone.
  const send_time = sendTime(config.timeZone)
  const singleBody = smsBody({
    send_time,
    mobile,
    temp_id: tempId,
    sign_id: signId,
    temp_para: tempPara,
    tag,
  })
  const batchBody = smsBody({ send_time, temp_id: tempId, sign_id: signId, tag, recipients })

  /** POST /v1/schedule and PUT /v1/schedule/{id}: the one recipient, checked as /v1/messages does. */
  function single(req: FastifyRequest): ScheduleInput {
    const body = singleBody.read(req)
    // Same template types as the immediate endpoints: /v1/messages takes all, the batch 2 and 3.
    const template = resolveTemplate(deps, req.tenant, body.temp_id, [1, 2, 3])
    const sign = resolveSign(deps, req.tenant, body.sign_id)
    renderTemplateMessage(deps, req.tenant, template, sign, body.temp_para)
    advise(req, config, smsRules, { tempType: template.type, at: body.send_time, timeZone: config.timeZone })
    const recipient = { mobile: body.mobile, tempPara: body.temp_para }
    return { ...common(body), recipients: [recipient], failures: [] }
  }

  /**
   * POST /v1/schedule/batch and PUT /v1/schedule/batch/{id}. Each recipient is checked on its own:
   * the bad ones are answered in `failure_recipients` and left out of the task.
   */
  function batch(req: FastifyRequest): ScheduleInput {
    const body = batchBody.read(req)
    const template = resolveTemplate(deps, req.tenant, body.temp_id, [2, 3])
    const resolved = { template, sign: resolveSign(deps, req.tenant, body.sign_id) }
    advise(req, config, smsRules, { tempType: template.type, at: body.send_time, timeZone: config.timeZone })
    const seen = new Set<string>()
    const input: ScheduleInput = { ...common(body), recipients: [], failures: [] }
    for (const raw of body.recipients) {
      try {
        const { mobile, para } = readRecipient(deps, req.tenant, resolved, raw, seen)
        input.recipients.push({ mobile, tempPara: para })
      } catch (err) {
        if (!isApiError(err)) throw err
        input.failures.push(recipientFailure(err, raw))
      }
    }
    return input
  }

  const common = (body: { send_time: number; temp_id: number; sign_id?: number; tag?: string }) => ({
    sendAt: body.send_time,
    tempId: body.temp_id,
    signId: body.sign_id,
    tag: body.tag,
  })

  const toRow = (tenant: Tenant, id: string, input: ScheduleInput, isBatch: boolean): NewSchedule => ({
    scheduleId: id,
    appKey: tenant.app.appKey,
    batch: isBatch,
    tempId: input.tempId,
    signId: input.signId ?? null,
    tag: input.tag ?? null,
    sendAt: input.sendAt,
  })
  // Each recipient's msg_id is allocated now, inside the write, and kept when the task fires.
  const withIds = (input: ScheduleInput) =>
    input.recipients.map(r => ({ ...r, msgId: String(store.sequences.next('msg_id')) }))

  /** A task this app may still change (`changing`); `isBatch` undefined: of either kind. */
  const changeable = (tenant: Tenant, id: string, isBatch: boolean | undefined, now: number): Schedule => {
    const s = store.schedules.get(tenant.app.appKey, id)
    if (!s) throw e.invalidScheduleId().because(`the app has no task ${id}`)
    if (isBatch !== undefined && s.batch !== isBatch)
      throw e.invalidScheduleId().because(`task ${id} is a ${s.batch ? 'batch' : 'single'} task`)
    // A task whose time has come is being sent: too late to change it.
    if (s.status !== 'pending')
      throw e
        .wrongScheduleStatus()
        .because(`task ${id} was already ${s.status === 'sent' ? 'sent' : 'deleted'}`)
    if (s.sendAt <= now) throw e.wrongScheduleStatus().because(`task ${id} is due: it is being sent`)
    return s
  }

  const create =
    <A>(isBatch: boolean, answer: (id: string, input: ScheduleInput) => A) =>
    async (req: FastifyRequest) => {
      const input = isBatch ? batch(req) : single(req)
      const id = randomUUID()
      await store.write({ announces: ['schedule.changed'] }, () => {
        const now = req.tenant.now()
        store.schedules.insert(toRow(req.tenant, id, input, isBatch), withIds(input), now)
        smsScheduleChanged(store, req.tenant.app.appKey, 'created', id, now, config.timeZone)
      })
      return answer(id, input)
    }

  // The task must still be changeable before its new body is read, and again as it is replaced.
  const modify =
    <A>(isBatch: boolean, answer: (id: string, input: ScheduleInput) => A) =>
    async (req: FastifyRequest, { params }: { params: { schedule_id: string } }) => {
      const id = params.schedule_id
      changeable(req.tenant, id, isBatch, req.tenant.now())
      const input = isBatch ? batch(req) : single(req)
      await store.write({ announces: ['schedule.changed'] }, () => {
        const now = req.tenant.now()
        changeable(req.tenant, id, isBatch, now)
        store.schedules.replace(toRow(req.tenant, id, input, isBatch), withIds(input), now)
        smsScheduleChanged(store, req.tenant.app.appKey, 'updated', id, now, config.timeZone)
      })
      return answer(id, input)
    }

  return [
    vendorRoute({
      method: 'POST',
      url: '/schedule',
      summary: 'Schedule one template message (jsms-api.md §2.6)',
      // Read by single(), as PUT reads it.
      checks: [singleBody, ...submitted],
      answer: scheduleId,
      handler: create(false, scheduled),
    }),
    vendorRoute({
      method: 'POST',
      url: '/schedule/batch',
      summary: 'Schedule a batch (jsms-api.md §2.6)',
      checks: [batchBody, ...submitted],
      answer: batchAnswer,
      handler: create(true, batchScheduled),
    }),
    vendorRoute({
      method: 'PUT',
      url: '/schedule/:schedule_id',
      summary: 'Replace a single task before it runs; it keeps its id (jsms-api.md §2.6)',
      reads: { params: scheduleIdParams },
      checks: [...changing, singleBody, ...submitted],
      answer: scheduleId,
      handler: modify(false, scheduled),
    }),
    vendorRoute({
      method: 'PUT',
      url: '/schedule/batch/:schedule_id',
      summary: 'Replace a batch task before it runs; it keeps its id (jsms-api.md §2.6)',
      reads: { params: scheduleIdParams },
      checks: [...changing, batchBody, ...submitted],
      answer: batchAnswer,
      handler: modify(true, batchScheduled),
    }),
    vendorRoute({
      method: 'GET',
      url: '/schedule/:schedule_id',
      summary: 'Read a task, single or batch (jsms-api.md §2.6)',
      reads: { params: scheduleIdParams },
      checks: [e.invalidScheduleId()],
      answer: taskAnswer,
      handler: async (req, { params }) => {
        const id = params.schedule_id
        const s = store.schedules.get(req.tenant.app.appKey, id)
        // A deleted task is gone for the vendor's API (the sandbox keeps it to answer 50029).
        if (!s || s.status === 'deleted')
          throw e.invalidScheduleId().because(s ? `task ${id} was deleted` : `the app has no task ${id}`)
        return {
          schedule_id: s.scheduleId,
          send_time: formatLocal(s.sendAt, config.timeZone),
          temp_id: s.tempId,
          recipients: store.schedules.recipients(id).map(r => ({
            msg_id: r.msgId,
            mobile: r.mobile,
            temp_para: r.tempPara,
            // Refused when the task fired (no money, frequency, unsubscribed…): as in a batch answer;
            // its message is recorded with its code.
            ...(r.errorCode === null
              ? {}
              : { error_code: String(r.errorCode), error_message: r.errorMessage as string }),
          })),
        }
      },
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/schedule/:schedule_id',
      summary: 'Delete a task before it runs (jsms-api.md §2.6)',
      reads: { params: scheduleIdParams },
      checks: changing,
      answer: { description: 'Deleted: an empty body.', media: null },
      handler: async (req, { params }, reply) => {
        await store.write({ announces: ['schedule.changed'] }, () => {
          const now = req.tenant.now()
          changeable(req.tenant, params.schedule_id, undefined, now)
          store.schedules.markDeleted(params.schedule_id, now)
          smsScheduleChanged(
            store,
            req.tenant.app.appKey,
            'deleted',
            params.schedule_id,
            now,
            config.timeZone,
          )
        })
        // 200 with an empty body (jsms-api.md §2.6), as every vendor DELETE answers.
        return emptyOk(reply)
      },
    }),
  ]
}

import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../../deps.js'
import { emptyOk } from '../../http/empty-reply.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { NewSchedule, Schedule } from '../../store/sms/schedules.js'
import type { Tenant } from '../../tenancy.js'
import { formatLocal } from '../../time.js'
import { smsErrors } from '../errors.js'
import { readBody } from '../fields.js'
import {
  createBatchScheduleDocs,
  createScheduleDocs,
  deleteScheduleDocs,
  modifyBatchScheduleDocs,
  modifyScheduleDocs,
  readScheduleDocs,
} from './docs.js'
import { readBatchSchedule, readSingleSchedule, type ScheduleInput } from './input.js'

type ScheduleIdParams = { schedule_id: string }

/** Scheduled messages (jsms-api.md §2.6). The scheduler (src/scheduler) sends them when due. */
export function scheduleRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps

  const toRow = (tenant: Tenant, scheduleId: string, input: ScheduleInput, batch: boolean): NewSchedule => ({
    scheduleId,
    appKey: tenant.app.appKey,
    batch,
    tempId: input.tempId,
    signId: input.signId ?? null,
    tag: input.tag ?? null,
    sendAt: input.sendAt,
  })
  // Each recipient's msg_id is allocated now, inside the write, and kept when the task fires.
  const withIds = (input: ScheduleInput) =>
    input.recipients.map(r => ({ ...r, msgId: String(store.sequences.next('msg_id')) }))

  /** A task this app may still change: 50028 unknown (or of the other kind), 50029 sent or deleted. */
  const changeable = (
    tenant: Tenant,
    scheduleId: string,
    batch: boolean | undefined,
    now: number,
  ): Schedule => {
    const s = store.schedules.get(tenant.app.appKey, scheduleId)
    if (!s || (batch !== undefined && s.batch !== batch)) throw smsErrors.invalidScheduleId()
    // A task whose time has come is being sent: too late to change it.
    if (s.status !== 'pending' || s.sendAt <= now) throw smsErrors.wrongScheduleStatus()
    return s
  }

  const create = (batch: boolean) => async (req: { body: unknown; tenant: Tenant }) => {
    const body = readBody(req.body)
    const input = batch
      ? readBatchSchedule(deps, req.tenant, body)
      : readSingleSchedule(deps, req.tenant, body)
    const scheduleId = randomUUID()
    await store.write(() =>
      store.schedules.insert(toRow(req.tenant, scheduleId, input, batch), withIds(input), req.tenant.now()),
    )
    return batch ? batchAnswer(scheduleId, input) : { schedule_id: scheduleId }
  }

  const modify =
    (batch: boolean) => async (req: { body: unknown; tenant: Tenant; params: ScheduleIdParams }) => {
      const { schedule_id: scheduleId } = req.params
      changeable(req.tenant, scheduleId, batch, req.tenant.now())
      const body = readBody(req.body)
      const input = batch
        ? readBatchSchedule(deps, req.tenant, body)
        : readSingleSchedule(deps, req.tenant, body)
      await store.write(() => {
        const now = req.tenant.now()
        changeable(req.tenant, scheduleId, batch, now)
        store.schedules.replace(toRow(req.tenant, scheduleId, input, batch), withIds(input), now)
      })
      return batch ? batchAnswer(scheduleId, input) : { schedule_id: scheduleId }
    }

  return [
    { method: 'POST', url: '/schedule', docs: createScheduleDocs, handler: create(false) },
    { method: 'POST', url: '/schedule/batch', docs: createBatchScheduleDocs, handler: create(true) },
    route<{ Params: ScheduleIdParams }>({
      method: 'PUT',
      url: '/schedule/:schedule_id',
      docs: modifyScheduleDocs,
      handler: modify(false),
    }),
    route<{ Params: ScheduleIdParams }>({
      method: 'PUT',
      url: '/schedule/batch/:schedule_id',
      docs: modifyBatchScheduleDocs,
      handler: modify(true),
    }),
    route<{ Params: ScheduleIdParams }>({
      method: 'GET',
      url: '/schedule/:schedule_id',
      docs: readScheduleDocs,
      handler: async req => {
        const { schedule_id: scheduleId } = req.params
        const s = store.schedules.get(req.tenant.app.appKey, scheduleId)
        // A deleted task is gone for the vendor's API (the sandbox keeps it to answer 50029).
        if (!s || s.status === 'deleted') throw smsErrors.invalidScheduleId()
        return {
          schedule_id: s.scheduleId,
          send_time: formatLocal(s.sendAt, deps.config.timeZone),
          temp_id: s.tempId,
          recipients: store.schedules.recipients(scheduleId).map(r => ({
            msg_id: r.msgId,
            mobile: r.mobile,
            temp_para: r.tempPara,
            // Refused when the task fired (no money, frequency, unsubscribed…): as in a batch answer.
            ...(r.errorCode === null
              ? {}
              : { error_code: String(r.errorCode), error_message: r.errorMessage }),
          })),
        }
      },
    }),
    route<{ Params: ScheduleIdParams }>({
      method: 'DELETE',
      url: '/schedule/:schedule_id',
      docs: deleteScheduleDocs,
      handler: async (req, reply) => {
        const { schedule_id: scheduleId } = req.params
        await store.write(() => {
          const now = req.tenant.now()
          changeable(req.tenant, scheduleId, undefined, now)
          store.schedules.markDeleted(scheduleId, now)
        })
        // 200 with an empty body (jsms-api.md §2.6), as every vendor DELETE answers.
        return emptyOk(reply)
      },
    }),
  ]
}

function batchAnswer(scheduleId: string, input: ScheduleInput) {
  return {
    schedule_id: scheduleId,
    success_count: input.recipients.length,
    failure_count: input.failures.length,
    failure_recipients: input.failures,
  }
}

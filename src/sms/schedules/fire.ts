import { appNow } from '../../clock.js'
import type { PipelineDeps } from '../../deps.js'
import { type ApiError, isApiError } from '../../errors.js'
import type { Tenant } from '../../tenancy.js'
import { recordReport, reportStatusForError } from '../reports/index.js'
import { deliver, renderTemplateMessage, resolveSign, resolveTemplate } from '../sending/index.js'

/**
 * Sends one due task. Call it inside a write job: the claim (pending → sent) and every message it
 * sends commit together or not at all, so racing ticks, a second process on the same file, a PUT
 * or DELETE at the due moment, or a kill half-way can never send it twice or half.
 * Returns false when there was nothing to send (already claimed, modified, deleted).
 */
export function fireSchedule(deps: PipelineDeps, appKey: string, scheduleId: string): boolean {
  const { store, clock } = deps
  const app = store.apps.get(appKey)
  if (!app) return false
  const now = appNow(clock, app)
  const tenant: Tenant = { app, now: () => now }
  const task = store.schedules.claim(scheduleId, now)
  if (!task) return false

  // The template and signature are those of the moment it fires: one deleted or rejected since
  // submission fails every recipient with the code an immediate send would get.
  let resolved:
    | { template: ReturnType<typeof resolveTemplate>; sign: ReturnType<typeof resolveSign> }
    | ApiError
  try {
    const template = resolveTemplate(deps, tenant, task.tempId, task.batch ? [2, 3] : [1, 2, 3])
    resolved = { template, sign: resolveSign(deps, tenant, task.signId ?? undefined) }
  } catch (err) {
    if (!isApiError(err)) throw err
    resolved = err
  }

  let sent = 0
  let failed = 0
  for (const r of store.schedules.recipients(scheduleId)) {
    try {
      if (isApiError(resolved)) throw resolved
      const { template, sign } = resolved
      const content = renderTemplateMessage(deps, tenant, template, sign, r.tempPara)
      const outgoing = {
        mobile: r.mobile,
        kind: 'template' as const,
        template,
        sign,
        para: r.tempPara,
        content,
      }
      // One refused (no money, frequency, unsubscribed) leaves no trace but its error, and the
      // others still go out: deliver refuses before it writes anything. (No savepoint per
      // recipient: SQLite would copy every page each one touches again.)
      deliver(deps, tenant, { ...outgoing, tag: task.tag, scheduleId, msgId: r.msgId }, now)
      sent++
    } catch (err) {
      if (!isApiError(err)) throw err
      failed++
      store.schedules.recordFailure(scheduleId, r.msgId, err.code, err.message)
      recordReport(
        deps,
        app,
        { msgId: r.msgId, mobile: r.mobile, status: reportStatusForError(err.code) },
        now,
      )
    }
  }
  // After its messages (their sms.sent events come first); JPush schedules record the same type.
  const data = { api: 'sms', schedule_id: scheduleId, fired_at: new Date(now).toISOString(), sent, failed }
  store.events.append({ appKey, type: 'schedule.fired', data, at: now })
  return true
}

import type { JobDeps } from '../../deps.js'
import { DUE_BATCH as BATCH, type DueWork, DUE_MAX_ROUNDS as MAX_ROUNDS } from '../../scheduler/due-work.js'
import { REPORTS_DUE } from './reports-table.js'

// The delivery reports' entry of the due-work list (scheduler/due-work.ts; the list: src/app.ts).

/** Delivery reports arrive REPORT_DELAY_MS after their message (and are called back). */
export const dueReports: DueWork<JobDeps> = {
  name: 'reports',
  nextDue: [REPORTS_DUE],
  run: arriveReports,
}

/**
 * Reports whose time has come arrive: each gets its seq (the sms.report event) and, for an app
 * that takes callbacks, an SMS_REPORT in the outbox.
 */
async function arriveReports({ store }: JobDeps, now: number): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const n = await store.write(() => {
      const arrived = store.reports.takeArrived(now, BATCH)
      for (const r of arrived) {
        if (!r.callBack) continue
        const data = { msgId: r.msgId, status: r.status, receiveTime: r.reportAt, phone: r.mobile }
        store.callbacks.enqueue(r.appKey, 'SMS_REPORT', data, r.reportAt)
      }
      return arrived.length
    })
    if (n < BATCH) return
  }
}

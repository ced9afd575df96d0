import type { Engine } from '../../store/engine/index.js'

/**
 * DELETE /v3/push/{msg_id} (jpush-api.md §5.14): the push is marked withdrawn, what still waited
 * for a device (pending deliveries, undecided SMS fallbacks) never happens. Deliveries that had
 * arrived keep their status: the sandbox's view shows them withdrawn through the push.
 */
export function createPushWithdrawalStore({ db }: Engine) {
  const mark = db.prepare(
    'UPDATE pushes SET withdrawn_at = @now WHERE app_key = @appKey AND msg_id = @msgId AND withdrawn_at IS NULL',
  )
  const pending = db.prepare(
    `UPDATE push_deliveries SET status = 'withdrawn'
     WHERE app_key = @appKey AND msg_id = @msgId AND status = 'pending'`,
  )
  // Out of the partial index of undecided fallbacks (migration 003): nothing will ever send them.
  const fallbacks = db.prepare(
    `UPDATE push_deliveries SET sms_due_at = NULL
     WHERE app_key = @appKey AND msg_id = @msgId AND sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL`,
  )
  return {
    /** Run inside a write job. Returns how many deliveries will now never arrive. */
    withdraw(appKey: string, msgId: string, now: number): number {
      mark.run({ appKey, msgId, now })
      fallbacks.run({ appKey, msgId })
      return pending.run({ appKey, msgId }).changes
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** DELETE /v3/push/{msg_id} (store.pushWithdrawals). */
    pushWithdrawals: ReturnType<typeof createPushWithdrawalStore>
  }
}

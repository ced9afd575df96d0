import type { Db } from './db.js'
import type { DueIndex } from './due-index.js'
import type { PushPlatform } from './push-devices.js'
import { prepareWrite } from './statements.js'

export type DeliveryStatus = 'pending' | 'delivered' | 'expired' | 'withdrawn'

/**
 * One push to one device: pending until it is online, delivered, or expired after time_to_live
 * (or withdrawn while it waited: push-withdrawals.ts).
 */
export interface Delivery {
  msgId: string
  appKey: string
  registrationId: string
  platform: PushPlatform
  status: DeliveryStatus
  expiresAt: number
  deliveredAt: number | null
  smsDueAt: number | null
  smsMsgId: string | null
  smsError: number | null
}

interface DeliveryRow {
  msg_id: string
  app_key: string
  registration_id: string
  platform: string
  status: string
  expires_at: number
  delivered_at: number | null
  sms_due_at: number | null
  sms_msg_id: string | null
  sms_error: number | null
}

const toDelivery = (r: DeliveryRow): Delivery => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  registrationId: r.registration_id,
  platform: r.platform as PushPlatform,
  status: r.status as DeliveryStatus,
  expiresAt: r.expires_at,
  deliveredAt: r.delivered_at,
  smsDueAt: r.sms_due_at,
  smsMsgId: r.sms_msg_id,
  smsError: r.sms_error,
})

// A fallback is due when its time has come and the push had not reached the device by then.
const SMS_DUE = `sms_due_at IS NOT NULL AND sms_due_at <= @now AND sms_msg_id IS NULL AND sms_error IS NULL
  AND (delivered_at IS NULL OR delivered_at > sms_due_at)`

type DeliveryParams = [
  msgId: string,
  appKey: string,
  rid: string,
  platform: string,
  status: DeliveryStatus,
  expiresAt: number,
  deliveredAt: number | null,
  smsDueAt: number | null,
  smsMsgId: string | null,
  smsError: number | null,
]

/** What each targeted device got of each push, and its SMS fallback (sms_message). */
export function createPushDeliveryStore(db: Db, due: DueIndex) {
  // Positional, not named: a broadcast inserts one row per device (100 000 and more).
  const insert = prepareWrite<DeliveryParams>(
    db,
    `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at,
       sms_due_at, sms_msg_id, sms_error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    // Due push work (due-times.ts): the expiry of a pending delivery, the fallback of one not delivered.
    (_msgId, appKey, _rid, _platform, status, expiresAt, deliveredAt, smsDueAt, smsMsgId, smsError) => {
      if (status === 'pending') due.note('push', appKey, expiresAt)
      if (smsDueAt !== null && deliveredAt === null && smsMsgId === null && smsError === null)
        due.note('push', appKey, smsDueAt)
    },
  )
  const ofPush = db.prepare<{ appKey: string; msgId: string }, DeliveryRow>(
    'SELECT * FROM push_deliveries WHERE app_key = @appKey AND msg_id = @msgId ORDER BY rowid',
  )
  const search = db.prepare<{ appKey: string; rid: string | null; msgId: string | null }, DeliveryRow>(
    `SELECT * FROM push_deliveries WHERE app_key = @appKey
       AND (@rid IS NULL OR registration_id = @rid) AND (@msgId IS NULL OR msg_id = @msgId)
     ORDER BY coalesce(delivered_at, expires_at), rowid`,
  )
  // Both say what they changed: a push callback may owe an event for each (push-callbacks.ts).
  const expire = db.prepare<{ appKey: string; now: number }, DeliveryRow>(
    `UPDATE push_deliveries SET status = 'expired' WHERE app_key = @appKey AND status = 'pending' AND expires_at <= @now
     RETURNING *`,
  )
  const deliverPending = db.prepare<{ appKey: string; rid: string; now: number }, DeliveryRow>(
    `UPDATE push_deliveries SET status = 'delivered', delivered_at = @now
     WHERE app_key = @appKey AND registration_id = @rid AND status = 'pending' AND expires_at > @now
     RETURNING *`,
  )
  // `+app_key`: through the partial index of undecided fallbacks (a few rows), not the app's
  // index, which holds every delivery the app ever had and is read on every push.
  const smsDue = db.prepare<{ appKey: string; now: number }, DeliveryRow>(
    `SELECT * FROM push_deliveries WHERE +app_key = @appKey AND ${SMS_DUE} ORDER BY sms_due_at, rowid`,
  )
  const setSms = db.prepare(
    `UPDATE push_deliveries SET sms_msg_id = @smsMsgId, sms_error = @smsError
     WHERE msg_id = @msgId AND registration_id = @rid`,
  )
  const appsWithWork = db.prepare<[], { app_key: string }>(
    `SELECT app_key FROM push_deliveries INDEXED BY push_deliveries_pending_due WHERE status = 'pending'
     UNION SELECT app_key FROM push_deliveries INDEXED BY push_deliveries_sms_due
       WHERE sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL`,
  )

  return {
    insert(d: Delivery): void {
      insert.run(
        d.msgId,
        d.appKey,
        d.registrationId,
        d.platform,
        d.status,
        d.expiresAt,
        d.deliveredAt,
        d.smsDueAt,
        d.smsMsgId,
        d.smsError,
      )
    },
    ofPush(appKey: string, msgId: string): Delivery[] {
      return ofPush.all({ appKey, msgId }).map(toDelivery)
    },
    search(appKey: string, q: { rid?: string | undefined; msgId?: string | undefined }): Delivery[] {
      return search.all({ appKey, rid: q.rid ?? null, msgId: q.msgId ?? null }).map(toDelivery)
    },
    /** What ran out of time_to_live undelivered, now expired. */
    expire(appKey: string, now: number): Delivery[] {
      return expire.all({ appKey, now }).map(toDelivery)
    },
    /** Hands every pending, unexpired push to a device that just came online; returns them. */
    deliverPending(appKey: string, rid: string, now: number): Delivery[] {
      return deliverPending.all({ appKey, rid, now }).map(toDelivery)
    },
    smsDue(appKey: string, now: number): Delivery[] {
      return smsDue.all({ appKey, now }).map(toDelivery)
    },
    setSms(msgId: string, rid: string, result: { smsMsgId: string | null; smsError: number | null }): void {
      setSms.run({ msgId, rid, ...result })
    },
    /** Apps with deliveries still pending or fallbacks not yet decided: each is settled on its own clock. */
    appsWithWork(): string[] {
      return appsWithWork.all().map(r => r.app_key)
    },
  }
}

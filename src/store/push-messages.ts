import type { Db } from './db.js'
import type { PushPlatform } from './push-devices.js'

export interface Push {
  msgId: string
  appKey: string
  sendno: string
  cid: string | null
  payload: Record<string, unknown>
  broadcast: boolean
  dayKey: string
  timeToLive: number
  createdAt: number
}

export type DeliveryStatus = 'pending' | 'delivered' | 'expired'

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

interface PushRow {
  msg_id: string
  app_key: string
  sendno: string
  cid: string | null
  payload: string
  broadcast: number
  day_key: string
  time_to_live: number
  created_at: number
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

const toPush = (r: PushRow): Push => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  sendno: r.sendno,
  cid: r.cid,
  payload: JSON.parse(r.payload),
  broadcast: r.broadcast === 1,
  dayKey: r.day_key,
  timeToLive: r.time_to_live,
  createdAt: r.created_at,
})

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

export function createPushMessageStore(db: Db) {
  const insertPush = db.prepare(
    `INSERT INTO pushes (msg_id, app_key, sendno, cid, payload, broadcast, day_key, time_to_live, created_at)
     VALUES (@msgId, @appKey, @sendno, @cid, @payload, @broadcast, @dayKey, @timeToLive, @createdAt)`,
  )
  const getPush = db.prepare<{ appKey: string; msgId: string }, PushRow>(
    'SELECT * FROM pushes WHERE app_key = @appKey AND msg_id = @msgId',
  )
  const latest = db.prepare<[string], PushRow>(
    'SELECT * FROM pushes WHERE app_key = ? ORDER BY created_at DESC, msg_id DESC LIMIT 1',
  )
  const byCid = db.prepare<{ appKey: string; cid: string; since: number }, PushRow>(
    'SELECT * FROM pushes WHERE app_key = @appKey AND cid = @cid AND created_at >= @since ORDER BY created_at LIMIT 1',
  )
  const broadcasts = db.prepare<{ appKey: string; dayKey: string }, { n: number }>(
    'SELECT count(*) AS n FROM pushes WHERE app_key = @appKey AND day_key = @dayKey AND broadcast = 1',
  )
  const insertDelivery = db.prepare(
    `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at,
       sms_due_at, sms_msg_id, sms_error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const ofPush = db.prepare<{ appKey: string; msgId: string }, DeliveryRow>(
    'SELECT * FROM push_deliveries WHERE app_key = @appKey AND msg_id = @msgId ORDER BY rowid',
  )
  const search = db.prepare<{ appKey: string; rid: string | null; msgId: string | null }, DeliveryRow>(
    `SELECT * FROM push_deliveries WHERE app_key = @appKey
       AND (@rid IS NULL OR registration_id = @rid) AND (@msgId IS NULL OR msg_id = @msgId)
     ORDER BY coalesce(delivered_at, expires_at), rowid`,
  )
  const expire = db.prepare(
    `UPDATE push_deliveries SET status = 'expired' WHERE app_key = @appKey AND status = 'pending' AND expires_at <= @now`,
  )
  const deliverPending = db.prepare(
    `UPDATE push_deliveries SET status = 'delivered', delivered_at = @now
     WHERE app_key = @appKey AND registration_id = @rid AND status = 'pending' AND expires_at > @now`,
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
  // Due push work for the scheduler: an undecided fallback of a push not yet delivered, or a
  // pending delivery reaching its time_to_live. Process time subtracts the app's clock offset.
  // Asked after every request: each part reads its partial index (the few undecided rows), never
  // the app's index of every delivery it ever had.
  const DUE_TIMES = `SELECT sms_due_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_sms_due
       WHERE sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL AND delivered_at IS NULL
     UNION ALL SELECT expires_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_pending_due
       WHERE status = 'pending'`
  const nextDue = db.prepare<[], { t: number | null }>(
    `SELECT MIN(d.t - a.clock_offset_ms) AS t FROM (${DUE_TIMES}) d JOIN apps a ON a.app_key = d.app_key`,
  )
  const nextDueOfApp = db.prepare<[string], { t: number | null }>(
    `SELECT MIN(t) AS t FROM (${DUE_TIMES}) WHERE app_key = ?`,
  )

  return {
    /** Process time of the earliest due push work of any app. */
    nextDue(): number | undefined {
      return nextDue.get()?.t ?? undefined
    },
    /** App time of the earliest due push work of one app. */
    nextDueOfApp(appKey: string): number | undefined {
      return nextDueOfApp.get(appKey)?.t ?? undefined
    },
    insertPush(p: Push): void {
      insertPush.run({ ...p, payload: JSON.stringify(p.payload), broadcast: p.broadcast ? 1 : 0 })
    },
    get(appKey: string, msgId: string): Push | undefined {
      const row = getPush.get({ appKey, msgId })
      return row && toPush(row)
    },
    latest(appKey: string): Push | undefined {
      const row = latest.get(appKey)
      return row && toPush(row)
    },
    /** The first push made with this cid since `since` (a cid is good for one day). */
    byCid(appKey: string, cid: string, since: number): Push | undefined {
      const row = byCid.get({ appKey, cid, since })
      return row && toPush(row)
    },
    broadcastsOn(appKey: string, dayKey: string): number {
      return broadcasts.get({ appKey, dayKey })?.n ?? 0
    },
    /** Positional, not named: a broadcast inserts one row per device (100 000 and more). */
    insertDelivery(d: Delivery): void {
      insertDelivery.run(
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
    deliveries(appKey: string, msgId: string): Delivery[] {
      return ofPush.all({ appKey, msgId }).map(toDelivery)
    },
    search(appKey: string, q: { rid?: string | undefined; msgId?: string | undefined }): Delivery[] {
      return search.all({ appKey, rid: q.rid ?? null, msgId: q.msgId ?? null }).map(toDelivery)
    },
    expire(appKey: string, now: number): void {
      expire.run({ appKey, now })
    },
    /** Hands every pending, unexpired push to a device that just came online. */
    deliverPending(appKey: string, rid: string, now: number): number {
      return deliverPending.run({ appKey, rid, now }).changes
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

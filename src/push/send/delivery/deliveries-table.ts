import type { PushPlatform } from '../../../device.js'
import { type DueQuery, dueQuery, type Engine } from '../../../store/engine/index.js'
import { createLister, type ListWindow } from '../../../store/engine/lister.js'

/** A push's deliveries of one platform that took one route, counted (routeCounts). */
export interface RouteCount {
  platform: PushPlatform
  route: string | null
  target: number
  sent: number
  received: number
  onlinePush: number
  click: number
  msgClick: number
}

export type DeliveryStatus = 'pending' | 'delivered' | 'expired' | 'withdrawn'

/**
 * One push to one device: pending until it is online, delivered, or expired after time_to_live
 * (or withdrawn while it waited: withdrawals-table.ts).
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
  /** Its push.delivered event, once delivered (store/engine/item-seqs.ts). */
  seq: number | null
  /** The device's alias when the push was delivered to it. */
  alias: string | null
  /** The channel it took, or will take once the device is back (push/send/delivery/route.ts). */
  route: string | null
  /** Why it did not arrive at once, or at all (push/send/delivery/route.ts). */
  reason: string | null
}

/** What a new delivery says; its seq is given by the store when it is delivered at once. */
export type NewDelivery = Omit<Delivery, 'seq'>

export type DeliveryFilter = ListWindow & { rid?: string; msgId?: string; alias?: string }

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
  seq: number | null
  alias: string | null
  route: string | null
  reason: string | null
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
  seq: r.seq,
  alias: r.alias,
  route: r.route,
  reason: r.reason,
})

/**
 * Push work due: an undecided fallback of a push not yet delivered (at sms_due_at), or a pending
 * delivery reaching its time_to_live (at expires_at). Each part reads its partial index (migrations
 * 003, 004: the few undecided rows), never the app's index of every delivery it ever had.
 */
export const PUSH_DUE: DueQuery = dueQuery(
  'x.t',
  `(SELECT sms_due_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_sms_due
       WHERE sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL AND delivered_at IS NULL
     UNION ALL SELECT expires_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_pending_due
       WHERE status = 'pending') x`,
  '1',
)

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
  alias: string | null,
  route: string | null,
  reason: string | null,
]

/**
 * When a new delivery's push work falls due (null: none): the expiry of a pending one, the fallback
 * of one not delivered, the earlier of the two (the due index keeps a lower bound).
 */
function dueOf(d: DeliveryParams): number | null {
  const expiry = d[4] === 'pending' ? d[5] : null
  const fallback = d[7] !== null && d[6] === null && d[8] === null && d[9] === null ? d[7] : null
  if (expiry === null) return fallback
  return fallback === null ? expiry : Math.min(expiry, fallback)
}

/** What each targeted device got of each push, and its SMS fallback (sms_message). */
export type PushDeliveryStore = ReturnType<typeof createPushDeliveryStore>

export function createPushDeliveryStore({ db, writes, caches }: Engine) {
  // How many deliveries each app has, read once from SQLite, then kept by every statement that
  // adds or removes some (the retention below asks it after every push). Journaled: a write job
  // that rolls back takes its count back too; a reset forgets it (caches.forgetApp).
  const counted = caches.rows<string, { n: number }>({ perApp: true, journaled: true })
  const countAll = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM push_deliveries WHERE app_key = ?',
  )
  const count = (appKey: string): number =>
    (counted.get(appKey) ?? counted.remember(appKey, { n: countAll.get(appKey)?.n ?? 0 })).n
  const added = (appKey: string, n: number) => {
    const known = counted.get(appKey)
    if (known && n !== 0) counted.remember(appKey, { n: known.n + n })
  }
  // Retention (PUSH_DELIVERIES_KEPT_PER_APP): the app's oldest push, its deliveries a bounded
  // number at a time, then the push itself once it has none left. Oldest by seq, which follows
  // creation within an app (migration 018: the index's order); NULL, the pushes from before it, first.
  const oldest = db.prepare<{ appKey: string; except: string }, { msg_id: string }>(
    `SELECT msg_id FROM pushes INDEXED BY pushes_by_app WHERE app_key = @appKey AND msg_id != @except
     ORDER BY seq, created_at, msg_id LIMIT 1`,
  )
  const dropSome = db.prepare<{ msgId: string; n: number }>(
    `DELETE FROM push_deliveries WHERE rowid IN (
       SELECT rowid FROM push_deliveries WHERE msg_id = @msgId LIMIT @n)`,
  )
  const dropPush = db.prepare<{ appKey: string; msgId: string }>(
    'DELETE FROM pushes WHERE app_key = @appKey AND msg_id = @msgId',
  )
  // Positional, not named: a broadcast inserts one row per device (100 000 and more). A delivery
  // made at once (the device was online) takes the next seq of its app (its push.delivered event);
  // one pending, or with a fallback, is push work due (dueOf).
  const insert = writes<DeliveryParams>(
    `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at,
       sms_due_at, sms_msg_id, sms_error, seq, alias, route, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, @seq, ?, ?, ?)`,
    {
      key: d => d[1],
      seq: d => (d[4] === 'delivered' ? 'push' : null),
      due: { query: PUSH_DUE, at: dueOf },
    },
  )
  const countOf = db.prepare<{ appKey: string; msgId: string }, { n: number }>(
    'SELECT count(*) AS n FROM push_deliveries WHERE msg_id = @msgId AND app_key = @appKey',
  )
  // The report host's counters of one push (push/report/counts.ts), counted in SQL through the
  // primary key (msg_id, registration_id): a 200 000-device push read into JavaScript took 5–9 s
  // (issue 32). One row per platform and route; a click is the device's own (one per push).
  const routeCounts = db.prepare<
    { appKey: string; msgId: string; createdAt: number },
    Omit<RouteCount, 'platform'> & { platform: string }
  >(
    `SELECT d.platform, d.route, count(*) AS target,
       coalesce(sum(d.route IS NOT NULL OR d.reason IS NULL), 0) AS sent,
       coalesce(sum(d.status = 'delivered'), 0) AS received,
       coalesce(sum(d.status = 'delivered' AND d.delivered_at = @createdAt), 0) AS onlinePush,
       coalesce(sum(c.kind = 'notification'), 0) AS click,
       coalesce(sum(c.kind = 'message'), 0) AS msgClick
     FROM push_deliveries d LEFT JOIN push_clicks c
       ON c.msg_id = d.msg_id AND c.registration_id = d.registration_id AND c.app_key = d.app_key
     WHERE d.msg_id = @msgId AND d.app_key = @appKey
     GROUP BY d.platform, d.route`,
  )
  const ofPush = db.prepare<{ appKey: string; msgId: string }, DeliveryRow>(
    'SELECT * FROM push_deliveries WHERE app_key = @appKey AND msg_id = @msgId ORDER BY rowid',
  )
  const list = createLister<'rid' | 'msgId' | 'alias', DeliveryRow>(db, {
    columns: '*',
    from: 'push_deliveries',
    appKey: 'app_key',
    seq: 'seq',
    time: 'delivered_at',
    where: 'seq IS NOT NULL',
    filters: { rid: 'registration_id = @rid', msgId: 'msg_id = @msgId', alias: 'alias = @alias' },
    indexed: { rid: 'push_deliveries_by_device', msgId: 'sqlite_autoindex_push_deliveries_1' },
  })
  const search = db.prepare<{ appKey: string; rid: string | null; msgId: string | null }, DeliveryRow>(
    `SELECT * FROM push_deliveries WHERE app_key = @appKey
       AND (@rid IS NULL OR registration_id = @rid) AND (@msgId IS NULL OR msg_id = @msgId)
     ORDER BY coalesce(delivered_at, expires_at), rowid`,
  )
  // Both say what they changed: a push callback may owe an event for each (push/send/delivery/callbacks.ts).
  const expire = db.prepare<{ appKey: string; now: number }, DeliveryRow>(
    `UPDATE push_deliveries SET status = 'expired' WHERE app_key = @appKey AND status = 'pending' AND expires_at <= @now
     RETURNING *`,
  )
  const pendingFor = db.prepare<{ appKey: string; rid: string; now: number }, { msg_id: string }>(
    `SELECT msg_id FROM push_deliveries
     WHERE app_key = @appKey AND registration_id = @rid AND status = 'pending' AND expires_at > @now ORDER BY rowid`,
  )
  // Each delivered with the next seq of its app (its push.delivered event).
  const deliver = writes<
    { appKey: string; msgId: string; rid: string; now: number; alias: string | null },
    DeliveryRow
  >(
    `UPDATE push_deliveries SET status = 'delivered', delivered_at = @now, seq = @seq, alias = @alias,
       route = coalesce(route, 'jpush'), reason = NULL
     WHERE msg_id = @msgId AND registration_id = @rid RETURNING *`,
    { seq: 'push' },
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
    /** A delivery made at once (the device was online) gets the next seq of its app; returns it. */
    insert(d: NewDelivery): Delivery {
      const delivered = d.status === 'delivered'
      const { seq } = insert.run([
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
        delivered ? d.alias : null,
        d.route,
        d.reason,
      ])
      added(d.appKey, 1)
      // Field by field, not a spread of `d`: one insert per delivery of every push.
      return {
        msgId: d.msgId,
        appKey: d.appKey,
        registrationId: d.registrationId,
        platform: d.platform,
        status: d.status,
        expiresAt: d.expiresAt,
        deliveredAt: d.deliveredAt,
        smsDueAt: d.smsDueAt,
        smsMsgId: d.smsMsgId,
        smsError: d.smsError,
        seq: delivered ? seq : null,
        alias: delivered ? d.alias : null,
        route: d.route,
        reason: d.reason,
      }
    },
    /** How many deliveries the app has (kept in memory after the first time). */
    count,
    /** Rows another statement wrote for the app (a broadcast's INSERT … SELECT: fan-out-table.ts). */
    added,
    /**
     * Keeps the app's deliveries to `keep`: what is beyond goes, oldest push first (with its row once
     * its deliveries are all gone), at most `atMost` rows per call and never of the push `except`
     * (the one being written). Inside a write job. Returns how many it removed.
     */
    trim(appKey: string, { keep, atMost, except }: { keep: number; atMost: number; except: string }): number {
      let left = Math.min(count(appKey) - keep, atMost)
      let removed = 0
      while (left > 0) {
        const push = oldest.get({ appKey, except })
        if (!push) break
        const gone = dropSome.run({ msgId: push.msg_id, n: left }).changes
        if (gone < left) dropPush.run({ appKey, msgId: push.msg_id })
        removed += gone
        left -= gone
      }
      added(appKey, -removed)
      return removed
    },
    /** How many devices the push targets (its deliveries, whatever their status). */
    countOf(appKey: string, msgId: string): number {
      return countOf.get({ appKey, msgId })?.n ?? 0
    },
    /**
     * A push's deliveries counted per platform and route: targets, sent (a route, or no refusal),
     * received, received at once (delivered at `createdAt`, the push's time), and their clicks.
     */
    routeCounts(appKey: string, msgId: string, createdAt: number): RouteCount[] {
      return routeCounts.all({ appKey, msgId, createdAt }) as RouteCount[]
    },
    ofPush(appKey: string, msgId: string): Delivery[] {
      return ofPush.all({ appKey, msgId }).map(toDelivery)
    },
    /** Deliveries made, newest first. */
    list(appKey: string, filter: DeliveryFilter): Delivery[] {
      return list(appKey, filter).map(toDelivery)
    },
    /** Every delivery of the app to a device and/or of a push, whatever its status. */
    search(appKey: string, q: { rid?: string | undefined; msgId?: string | undefined }): Delivery[] {
      return search.all({ appKey, rid: q.rid ?? null, msgId: q.msgId ?? null }).map(toDelivery)
    },
    /** What ran out of time_to_live undelivered, now expired. */
    expire(appKey: string, now: number): Delivery[] {
      return expire.all({ appKey, now }).map(toDelivery)
    },
    /**
     * Hands every pending, unexpired push to a device that just came online (whose alias is now
     * `alias`), oldest first, each with its seq; returns them.
     */
    deliverPending(appKey: string, rid: string, alias: string | null, now: number): Delivery[] {
      return pendingFor
        .all({ appKey, rid, now })
        .map(({ msg_id: msgId }) => deliver.get({ appKey, msgId, rid, now, alias }))
        .filter(r => r !== undefined)
        .map(toDelivery)
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

declare module '../../../store/index.js' {
  interface Tables {
    /** What each targeted device got of each push, and its SMS fallback (store.pushDeliveries). */
    pushDeliveries: PushDeliveryStore
  }
}

import type { Engine } from '../engine/index.js'
import { PUSH_DUE } from './deliveries.js'
import type { PushPlatform } from './devices.js'

// A broadcast's deliveries (audience "all") as one INSERT … SELECT from the registry, instead of
// reading 100 000 devices into JavaScript and inserting their rows one statement each (issue 11:
// that path cost 1.3 s, the inserts alone half of it). The rows are the ones the row-by-row path
// (push/delivery/fan-out.ts) writes, computed in SQL: the same devices (the app's, on the platforms the push
// reaches), in the same order (the registry's: created_at, rowid), so the same rowids; the same
// status, times and alias; and each device online at push time gets the next seq of the app, one
// consecutive range taken once from seqs.ts, numbered in that order (`first + running count - 1`).

const OF_APP = `FROM push_devices WHERE app_key = @appKey AND platform IN (SELECT value FROM json_each(@platforms))`

interface FanOutParams {
  msgId: string
  appKey: string
  /** A JSON array of the platforms reached. */
  platforms: string
  now: number
  expiresAt: number
  /** What a device offline at push time gets: pending, or expired at once (time_to_live 0). */
  offline: 'pending' | 'expired'
  /** The seq of the first device online at push time (any number when none is). */
  firstSeq: number
}

/** The deliveries of a broadcast: how many devices it reaches, and their rows written at once. */
export function createPushFanOut({ db, due, seqs }: Engine) {
  const count = db.prepare<{ appKey: string; platforms: string }, { targets: number; online: number }>(
    `SELECT count(*) AS targets, coalesce(sum(online = 1), 0) AS online ${OF_APP}`,
  )
  const insert = db.prepare<FanOutParams>(
    `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at,
       sms_due_at, sms_msg_id, sms_error, seq, alias)
     SELECT @msgId, app_key, registration_id, platform,
       CASE WHEN online = 1 THEN 'delivered' ELSE @offline END, @expiresAt,
       CASE WHEN online = 1 THEN @now END, NULL, NULL, NULL,
       CASE WHEN online = 1
         THEN @firstSeq - 1 + sum(online = 1) OVER (ORDER BY created_at, rowid ROWS UNBOUNDED PRECEDING) END,
       CASE WHEN online = 1 THEN alias END
     ${OF_APP} ORDER BY created_at, rowid`,
  )

  return {
    /** The devices of the app on `platforms`: how many, and how many of them are online. */
    count(appKey: string, platforms: readonly PushPlatform[]): { targets: number; online: number } {
      return count.get({ appKey, platforms: JSON.stringify(platforms) }) ?? { targets: 0, online: 0 }
    },
    /**
     * Writes the push's delivery to every device of the app on `platforms`; `online` is the count
     * just read in the same write job (the seqs it reserves). Delivered at once to the online ones,
     * pending (or expired, `ttl` 0) for the others.
     */
    insert(
      d: { msgId: string; appKey: string; now: number; ttl: number; online: number },
      platforms: readonly PushPlatform[],
    ): void {
      // Reserved like pushDeliveries.insert reserves one per delivered row, marking the topic once.
      const firstSeq = d.online > 0 ? seqs.next(d.appKey, 'push', d.online) : 0
      const expiresAt = d.now + d.ttl * 1000
      const offline = d.ttl > 0 ? 'pending' : 'expired'
      insert.run({
        msgId: d.msgId,
        appKey: d.appKey,
        platforms: JSON.stringify(platforms),
        now: d.now,
        expiresAt,
        offline,
        firstSeq,
      })
      // Push work due, as pushDeliveries.insert notes it: the expiry of the pending deliveries, all
      // at the same time. Noted whether or not a device was offline: a bound may be early (the work
      // is then looked at and found done), never late. No SMS fallback here: a push with one takes
      // the row-by-row path.
      if (offline === 'pending') due.note(PUSH_DUE, d.appKey, expiresAt)
    },
  }
}

export type PushFanOut = ReturnType<typeof createPushFanOut>

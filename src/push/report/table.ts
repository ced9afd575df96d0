import type { PushPlatform } from '../../device.js'
import type { Engine } from '../../store/engine/index.js'

// What the app's devices did over a period, for the user statistics (jpush-api.md §6.5,
// push/report/users.ts): registrations, online sessions and activity (a push received or opened).

/** `[from, to)`, epoch ms on the app's clock. */
type Range = { appKey: string; from: number; to: number }

/** A device's moment: when it registered, or received or opened a push. */
export interface DeviceMoment {
  rid: string
  platform: PushPlatform
  at: number
}

/** An online session (migration 010): from `on` until `off` (null: still online). */
export interface OnlineSession {
  rid: string
  platform: PushPlatform
  on: number
  off: number | null
}

export function createPushActivityStore({ db }: Engine) {
  const registered = db.prepare<Range, DeviceMoment>(
    `SELECT registration_id AS rid, platform, created_at AS at FROM push_devices
     WHERE app_key = @appKey AND created_at >= @from AND created_at < @to`,
  )
  const sessions = db.prepare<Range, OnlineSession>(
    `SELECT registration_id AS rid, platform, online_at AS "on", offline_at AS off FROM push_device_sessions
     WHERE app_key = @appKey AND online_at < @to AND (offline_at IS NULL OR offline_at > @from)
     ORDER BY registration_id, online_at`,
  )
  // delivered_at, not status: a delivered push stays received whatever becomes of it later.
  const active = db.prepare<Range, DeviceMoment>(
    `SELECT registration_id AS rid, platform, delivered_at AS at FROM push_deliveries
     WHERE app_key = @appKey AND delivered_at >= @from AND delivered_at < @to
     UNION ALL
     SELECT registration_id, platform, clicked_at FROM push_clicks
     WHERE app_key = @appKey AND clicked_at >= @from AND clicked_at < @to`,
  )
  return {
    /** Devices registered in the period. */
    registered: (appKey: string, from: number, to: number): DeviceMoment[] =>
      registered.all({ appKey, from, to }),
    /** Online sessions that overlap the period, by device then time. */
    onlineSessions: (appKey: string, from: number, to: number): OnlineSession[] =>
      sessions.all({ appKey, from, to }),
    /** Pushes received and opened in the period, one moment each. */
    active: (appKey: string, from: number, to: number): DeviceMoment[] => active.all({ appKey, from, to }),
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** What the app's devices did over a period, for the user statistics (store.pushActivity). */
    pushActivity: ReturnType<typeof createPushActivityStore>
  }
}

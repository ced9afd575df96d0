import { dueQuery, type Engine } from '../../store/engine/index.js'
import { createLister, type ListWindow } from '../../store/engine/lister.js'
import type { RegistryKey } from './delivery/fan-out-table.js'

/**
 * Where a push's slices have got to (push/send/delivery/slices.ts): the registry's devices after
 * `after` and up to `end` still have to be gone through.
 */
export interface FanOutPlan {
  after: RegistryKey
  end: RegistryKey
}

/** Pushes whose deliveries are still being written: due at once (their slices are overdue). */
export const FAN_OUT_DUE = dueQuery(
  'x.created_at',
  'pushes x INDEXED BY pushes_fanning_out',
  'x.fan_out IS NOT NULL',
)

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
  /** When it was withdrawn (DELETE /v3/push/{msg_id}); null while it stands. */
  withdrawnAt?: number | null
  /** The group push it is one app's part of (its group_msgid); null for the app's own pushes. */
  groupMsgId?: string | null
  /** The push plan it named (options.business_operation_code). */
  plan?: string | null
  /** Its slices still to be written (push/send/delivery/slices.ts); null once every delivery is. */
  fanOut?: FanOutPlan | null
  /** Its push.sent event (given by `insert`); null for pushes accepted before migration 018. */
  seq?: number | null
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
  withdrawn_at: number | null
  group_msgid: string | null
  plan: string | null
  fan_out: string | null
  seq: number | null
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
  withdrawnAt: r.withdrawn_at,
  groupMsgId: r.group_msgid,
  plan: r.plan,
  fanOut: r.fan_out === null ? null : (JSON.parse(r.fan_out) as FanOutPlan),
  seq: r.seq,
})

/** Accepted pushes, one row each (what each device got: delivery/deliveries-table.ts). */
export function createPushStore({ db, writes }: Engine) {
  // Positional (binding by name looks each parameter up in an object, on every push), the app's key
  // second; the seq of its push.sent event taken and bound by the engine.
  const insertPush = writes<
    [
      msgId: string,
      appKey: string,
      sendno: string,
      cid: string | null,
      payload: string,
      broadcast: number,
      dayKey: string,
      timeToLive: number,
      createdAt: number,
      groupMsgId: string | null,
      plan: string | null,
    ]
  >(
    `INSERT INTO pushes (msg_id, app_key, sendno, cid, payload, broadcast, day_key, time_to_live, created_at,
       group_msgid, plan, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, @seq)`,
    { key: p => p[1], seq: 'push' },
  )
  const list = createLister<never, PushRow>(db, {
    columns: '*',
    from: 'pushes INDEXED BY pushes_by_app',
    appKey: 'app_key',
    seq: 'seq',
    time: 'created_at',
    where: 'seq IS NOT NULL',
    filters: {},
  })
  // Through the partial index of migration 015: only group pushes' parts are in it.
  const ofGroup = db.prepare<[string], PushRow>(
    'SELECT * FROM pushes WHERE group_msgid = ? ORDER BY app_key, msg_id',
  )
  const getPush = db.prepare<{ appKey: string; msgId: string }, PushRow>(
    'SELECT * FROM pushes WHERE app_key = @appKey AND msg_id = @msgId',
  )
  // Through pushes_by_app (app_key, seq), migration 018: seqs follow creation times within an
  // app; the pushes accepted before it (seq NULL) come last, by their creation time.
  const latest = db.prepare<[string], PushRow>(
    'SELECT * FROM pushes WHERE app_key = ? ORDER BY seq DESC, created_at DESC, msg_id DESC LIMIT 1',
  )
  // Through the cid's own index (partial since migration 012: only pushes that carry one); left
  // to itself SQLite walked the app's pushes of the whole day through pushes_by_app.
  const byCid = db.prepare<{ appKey: string; cid: string; since: number }, PushRow>(
    `SELECT * FROM pushes INDEXED BY pushes_by_cid WHERE app_key = @appKey AND cid = @cid AND created_at >= @since
     ORDER BY created_at LIMIT 1`,
  )
  // pushes_by_day holds broadcasts only (migration 012).
  const broadcasts = db.prepare<{ appKey: string; dayKey: string }, { n: number }>(
    'SELECT count(*) AS n FROM pushes WHERE app_key = @appKey AND day_key = @dayKey AND broadcast = 1',
  )

  const SET_FAN_OUT = 'UPDATE pushes SET fan_out = @plan WHERE app_key = @appKey AND msg_id = @msgId'
  const setFanOut = db.prepare<{ appKey: string; msgId: string; plan: string | null }>(SET_FAN_OUT)
  // A fan-out planned is due at once: its slices are overdue from the push's creation on.
  const planFanOut = writes<{ appKey: string; msgId: string; plan: string; createdAt: number }>(SET_FAN_OUT, {
    due: { query: FAN_OUT_DUE, at: p => p.createdAt },
  })
  const setAudience = db.prepare<{ appKey: string; msgId: string; audience: string }>(
    'UPDATE pushes SET fan_out_audience = @audience WHERE app_key = @appKey AND msg_id = @msgId',
  )
  const audienceOf = db.prepare<{ appKey: string; msgId: string }, { a: string | null }>(
    'SELECT fan_out_audience AS a FROM pushes WHERE app_key = @appKey AND msg_id = @msgId',
  )
  const fanningOut = db.prepare<[], { app_key: string; msg_id: string }>(
    'SELECT app_key, msg_id FROM pushes INDEXED BY pushes_fanning_out WHERE fan_out IS NOT NULL ORDER BY created_at',
  )

  return {
    /**
     * The push's deliveries will be written in slices (push/send/delivery/slices.ts): from `plan.after`
     * on; `audience`, when the payload does not carry it (a file push's). Due at once.
     */
    sliceFanOut(p: Pick<Push, 'appKey' | 'msgId' | 'createdAt'>, plan: FanOutPlan, audience?: unknown): void {
      planFanOut.run({ appKey: p.appKey, msgId: p.msgId, plan: JSON.stringify(plan), createdAt: p.createdAt })
      if (audience !== undefined)
        setAudience.run({ appKey: p.appKey, msgId: p.msgId, audience: JSON.stringify(audience) })
    },
    /** A slice is written: the next starts after `after`; `null`: every delivery is written. */
    fanOutAt(appKey: string, msgId: string, plan: FanOutPlan | null): void {
      setFanOut.run({ appKey, msgId, plan: plan && JSON.stringify(plan) })
    },
    /** The audience a planned fan-out goes through, when the payload does not carry it. */
    fanOutAudience(appKey: string, msgId: string): unknown {
      const a = audienceOf.get({ appKey, msgId })?.a
      return a == null ? undefined : JSON.parse(a)
    },
    /** Every push whose slices are not all written yet, oldest first. */
    fanningOut(): Array<{ appKey: string; msgId: string }> {
      return fanningOut.all().map(r => ({ appKey: r.app_key, msgId: r.msg_id }))
    },
    /** Stores an accepted push with the seq of its push.sent event (the stream reads the row). */
    insert(p: Push): void {
      insertPush.run([
        p.msgId,
        p.appKey,
        p.sendno,
        p.cid,
        JSON.stringify(p.payload),
        p.broadcast ? 1 : 0,
        p.dayKey,
        p.timeToLive,
        p.createdAt,
        p.groupMsgId ?? null,
        p.plan ?? null,
      ])
    },
    /** The app's accepted pushes by seq, newest first (lister.ts): the push.sent events. */
    list(appKey: string, window: ListWindow): Push[] {
      return list(appKey, window).map(toPush)
    },
    /** The pushes a group push made, one per member app that accepted it (every app's). */
    ofGroup(groupMsgId: string): Push[] {
      return ofGroup.all(groupMsgId).map(toPush)
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
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Accepted pushes, and where a push's slices have got to (store.pushes). */
    pushes: ReturnType<typeof createPushStore>
  }
}

import type { Engine } from '../engine/index.js'
import { createLister, type ListWindow } from '../engine/lister.js'

/** Every event the stream (GET /_sandbox/events) carries. */
export const EVENT_TYPES = [
  'sms.sent',
  'sms.report',
  'sms.reply',
  'push.delivered',
  'push.clicked',
  'callback.attempt',
  'review.decided',
  'schedule.fired',
  'clock.moved',
  'app.reset',
  'app.changed',
  'request.completed',
  'push.sent',
  'code.verified',
  'template.changed',
  'sign.changed',
  'schedule.changed',
  'device.changed',
  'fault.changed',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

/**
 * Types whose item is a row of its own (messages, reports, pushes, deliveries, requests), never in
 * `events`: announced by the statement that stores the row, with its seq (`writes(sql, { seq })`).
 */
export const ROW_EVENT_TYPES = [
  'sms.sent',
  'sms.report',
  'push.sent',
  'push.delivered',
  'request.completed',
] as const satisfies readonly EventType[]
export type RowEventType = (typeof ROW_EVENT_TYPES)[number]
export type LogEventType = Exclude<EventType, RowEventType>

/**
 * What a write job declares it may announce on the log (engine/writer.ts: Declared), in the log's
 * types: `store.write(job, { announces: ['code.verified'] })`. A due-work entry declares its own,
 * and its writes pass the entry itself (scheduler/due-work.ts).
 */
export interface Announces {
  readonly announces?: readonly LogEventType[] | undefined
}

export interface LoggedEvent {
  seq: number
  type: LogEventType
  /** App clock. */
  at: number
  /** Shaped like the matching inspection item (what the stream sends as it is). */
  data: unknown
}

interface Row {
  seq: number
  type: string
  at: number
  data: string
}

/** Per app: the newest events kept (the others' items keep their own rows, with no limit). */
export const EVENTS_KEPT = 1000
/** Appends between two prunes of an app: the log is at most EVENTS_KEPT + PRUNE_EVERY long. */
const PRUNE_EVERY = 100
/** The most events an app's log holds at any time (an import holds no more). */
export const EVENTS_HELD = EVENTS_KEPT + PRUNE_EVERY

/** Event types whose data is the app as GET /_sandbox/app shows it, its developer included. */
const APP_VIEWS = new Set<string>(['app.changed', 'app.reset'])

/**
 * An event's data as it may leave the sandbox: an app event stored before issue 33 carried the
 * developer's secret (an auto-provisioned app's is its masterSecret reversed); it is taken out
 * wherever events are read (the stream, `wait=`, an export).
 */
export function eventData(type: string, text: string): unknown {
  const data: unknown = JSON.parse(text)
  if (APP_VIEWS.has(type)) {
    const developer = (data as { developer?: Record<string, unknown> } | null)?.developer
    if (developer && typeof developer === 'object') delete developer.dev_secret
  }
  return data
}

/**
 * The event log of what has no row of its own to carry a seq (migration 011): one INSERT per
 * event, in the write that makes the change, so an event exists exactly when its change does.
 * Pruned per app to the newest EVENTS_KEPT; a reset empties it, then logs app.reset: either way the
 * largest seq survives a restart.
 */
export function createEventLog({ db, writes, assertListed }: Engine) {
  // Its seq taken by the engine, unless the change took one for its own row (a reply, a callback
  // attempt); an app.reset's wakes the app's waiters too (item-seqs.ts: topic 'reset').
  const insert = writes<{
    appKey: string
    type: LogEventType
    at: number
    data: string
    seq: number | undefined
  }>('INSERT INTO events (app_key, seq, type, at, data) VALUES (@appKey, @seq, @type, @at, @data)', {
    seq: e => (e.type === 'app.reset' ? 'reset' : 'events'),
  })
  const prune = db.prepare<{ appKey: string; keep: number }>(
    `DELETE FROM events WHERE app_key = @appKey AND seq < (
       SELECT seq FROM events WHERE app_key = @appKey ORDER BY seq DESC LIMIT 1 OFFSET @keep - 1)`,
  )
  const list = createLister<'kind', Row>(db, {
    columns: 'seq, type, at, data',
    from: 'events',
    appKey: 'app_key',
    seq: 'seq',
    time: 'at',
    filters: { kind: 'type = @kind' },
  })
  const appended = new Map<string, number>()

  return {
    /**
     * Records an event of the app, inside the write that makes the change; returns its seq. `seq`:
     * one the change already took for its own row (a reply, a callback attempt). Whoever listens
     * hears of it once the write is durable; an `app.reset` also answers the app's waiters.
     */
    append(e: { appKey: string; type: LogEventType; data: unknown; at: number; seq?: number }): number {
      // Only an event its job lists (engine/writer.ts: Declared); else the job fails, change and all.
      assertListed(e.type)
      const { seq } = insert.run({
        appKey: e.appKey,
        seq: e.seq,
        type: e.type,
        at: e.at,
        data: JSON.stringify(e.data),
      })
      const n = (appended.get(e.appKey) ?? 0) + 1
      if (n >= PRUNE_EVERY) {
        prune.run({ appKey: e.appKey, keep: EVENTS_KEPT })
        appended.delete(e.appKey)
      } else {
        if (appended.size >= 10_000) appended.clear()
        appended.set(e.appKey, n)
      }
      return seq
    },
    /** The app's logged events, newest first (lister.ts). */
    list(appKey: string, filter: ListWindow & { kind?: string }): LoggedEvent[] {
      return list(appKey, filter).map(r => ({
        seq: r.seq,
        type: r.type as LogEventType,
        at: r.at,
        data: eventData(r.type, r.data),
      }))
    },
  }
}

export type EventLog = ReturnType<typeof createEventLog>

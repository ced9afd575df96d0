import type { Db } from './db.js'

/** What a seq was given to; a waiter listens to one topic, the event stream to all. */
export type SeqTopic = 'sms' | 'reports' | 'push' | 'callbacks' | 'replies' | 'events' | 'requests' | 'reset'

/** The apps that got new seqs in one commit, with the topics of what they got. */
export type Marks = ReadonlyMap<string, ReadonlySet<SeqTopic>>

/** Bounded like the row caches: a forgotten app asks SQLite for its largest seq again. */
const LIMIT = 10_000

/**
 * The per-app counter behind every `seq` (migration 011): one counter per app across every kind,
 * so `after=` and `Last-Event-ID` mean the same thing on every list and on the event stream.
 *
 * Kept in memory (one process per database file: db.ts), started at an app's first use from the
 * largest seq stored anywhere for it, and taken inside the write job that stores the item, so seqs
 * grow in commit order. A job that rolls back leaves a gap, never a repeat that anyone saw. No
 * statement runs on the hot path: a send pays a Map lookup.
 *
 * Commits wake listeners (waiters, event streams: events/hub.ts) only for apps someone listens to:
 * `next` marks the app when `listened(appKey)` says so; the writer `take`s the marks of a commit
 * and `publish`es them once the commit is durable (writer.ts), never before.
 */
export function createSeqs(db: Db) {
  const largest = db.prepare<{ appKey: string }, { seq: number | null }>(
    `SELECT max(seq) AS seq FROM (
       SELECT max(seq) AS seq FROM messages WHERE app_key = @appKey
       UNION ALL SELECT max(seq) FROM reports WHERE app_key = @appKey AND seq IS NOT NULL
       UNION ALL SELECT max(seq) FROM push_deliveries WHERE app_key = @appKey AND seq IS NOT NULL
       UNION ALL SELECT max(seq) FROM pushes WHERE app_key = @appKey AND seq IS NOT NULL
       UNION ALL SELECT max(seq) FROM callbacks WHERE app_key = @appKey
       UNION ALL SELECT max(seq) FROM replies WHERE app_key = @appKey
       UNION ALL SELECT max(seq) FROM events WHERE app_key = @appKey
       UNION ALL SELECT max(seq) FROM requests WHERE app_key = @appKey
       UNION ALL SELECT seq FROM seq_floors WHERE app = @appKey)`,
  )
  // Migration 028: what the counter had reached when the app's rows went.
  const keepFloor = db.prepare<{ appKey: string; seq: number }>(
    `INSERT INTO seq_floors (app, seq) VALUES (@appKey, @seq)
     ON CONFLICT (app) DO UPDATE SET seq = max(seq, excluded.seq)`,
  )
  const counters = new Map<string, number>()
  let marks = new Map<string, Set<SeqTopic>>()
  let listened: (appKey: string) => boolean = () => false
  let listener: (marks: Marks) => void = () => {}

  function current(appKey: string): number {
    let n = counters.get(appKey)
    if (n === undefined) {
      n = largest.get({ appKey })?.seq ?? 0
      if (counters.size >= LIMIT) counters.clear()
      counters.set(appKey, n)
    }
    return n
  }

  function mark(appKey: string, topic: SeqTopic): void {
    if (!listened(appKey)) return
    const topics = marks.get(appKey)
    if (topics) topics.add(topic)
    else marks.set(appKey, new Set([topic]))
  }

  return {
    /** Reserves `n` consecutive seqs of the app for `topic`; returns the first. Inside a write. */
    next(appKey: string, topic: SeqTopic, n = 1): number {
      const first = current(appKey) + 1
      counters.set(appKey, first + n - 1)
      mark(appKey, topic)
      return first
    },
    /** The app's largest seq handed out so far (0: none). */
    current,
    /**
     * The app's rows are about to be deleted (a reset, a removal, an import), inside the write that
     * deletes them: its counter is read from them now, unless memory holds it already, and kept in
     * SQLite (migration 028), so that its seqs go on from where they were and are never repeated,
     * even once memory has let the counter go or the process restarted (the rows that held the
     * largest are gone by then). The statements that delete an app's rows call it themselves
     * (apps/app-rows.ts, apps/app-document.ts: the chunked removal, once per chunk).
     */
    carryOver(appKey: string): void {
      keepFloor.run({ appKey, seq: current(appKey) })
    },
    /** The app's seqs go on above `seq` (rows written with seqs of their own: an import). In a write. */
    skipPast(appKey: string, seq: number): void {
      if (seq > current(appKey)) counters.set(appKey, seq)
    },
    /** Wakes the app's listeners of `topic` at the next durable commit (a reset releases waiters). */
    mark,
    /** The marks made since the last take: the writer takes them with each commit. */
    take(): Marks | undefined {
      if (marks.size === 0) return undefined
      const taken = marks
      marks = new Map()
      return taken
    },
    /** A commit carrying `taken` is durable: its listeners may look. */
    publish(taken: Marks | undefined): void {
      if (taken) listener(taken)
    },
    /** Set once by the hub: whether an app has listeners, and what to do after a durable commit. */
    watch(options: { listened: (appKey: string) => boolean; committed: (marks: Marks) => void }): void {
      listened = options.listened
      listener = options.committed
    },
  }
}

export type Seqs = ReturnType<typeof createSeqs>

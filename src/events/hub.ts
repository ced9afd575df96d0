import type { ServerResponse } from 'node:http'
import { type Held, type HeldBound, type Holding, OverBound } from '../limits/held.js'
import type { Marks, SeqTopic } from '../store/engine/item-seqs.js'
import type { Store } from '../store/index.js'
import { hold, type Waiter, type WaitTopic } from './held.js'

/** Who listens to an app: requests held by `wait=` and event streams. */
export interface Subscriber {
  /** Something new may be there (any topic). */
  wake(): void
  /** About every HUB_DEFAULTS.heartbeatMs: a comment line keeps proxies from closing the stream. */
  heartbeat(): void
  /** The sandbox closes, or the app was removed (`why`, sent as a comment): end the stream now. */
  close(why?: string): void
}

interface Listeners {
  waiters: Set<Waiter>
  subscribers: Set<Subscriber>
}

export const HUB_DEFAULTS = {
  /** Requests held by `wait=` at once, per app (429 beyond): MAX_WAITING_REQUESTS_PER_APP. */
  maxWaiters: 100,
  /** Open event streams per app (429 beyond): MAX_EVENT_STREAMS_PER_APP. */
  maxSubscribers: 20,
  heartbeatMs: 15_000,
}
/** Each event stream's bounds (subscriber.ts). */
export const STREAM_DEFAULTS = {
  /** Events read from SQLite at a time while the client keeps up. */
  batch: 100,
  /**
   * How far behind (in seqs) a client that stopped reading may fall before it is dropped: it is
   * then sent a final `dropped` event and closed, and resumes with Last-Event-ID (an EventSource
   * does so by itself). Past EVENTS_KEPT (store/events/log.ts) it could lose logged events.
   */
  maxLag: 1000,
  /** After the final event, how long a client that still reads nothing keeps its socket. */
  dropGraceMs: 10_000,
  /**
   * Real time a stream stays open (EVENT_STREAM_MAX_LIFE_MS): then it ends with a comment saying
   * so, and the client comes back with Last-Event-ID (an EventSource does so by itself), so that
   * no client holds a stream, and its slot of the bounds, for good.
   */
  maxLifeMs: 30 * 60_000,
}
export type StreamOptions = Partial<typeof STREAM_DEFAULTS>

/** The bounds (tests make them small); `stream`: each event stream's (subscriber.ts). */
export type HubOptions = Partial<typeof HUB_DEFAULTS> & { stream?: StreamOptions }

/**
 * How a listener over a bound is refused: the error the surface that holds listeners answers
 * (the control plane's 90060, given by app.ts), so that the hub knows no surface's error table.
 * 429 for an app's or a client's share, 503 for the whole sandbox's.
 */
export type Refuse = (reason: string, status: 429 | 503) => Error

/** The process-wide and per-client bounds the hub takes its listeners from (limits/held.ts). */
export type HubBounds = Pick<Held, 'eventStreams' | 'waiting' | 'refusals'>

/**
 * The in-memory side of waiting and events (issue 12 §3, §4): who listens to which app. Nothing
 * polls. The store's writer tells the hub, once a commit is durable, which apps got new seqs and of
 * what (store/engine/item-seqs.ts: only apps that have listeners are even marked); the hub wakes their waiters
 * of that topic and their streams, each of which reads SQLite past what it already has. An idle
 * app costs nothing; an idle stream costs a socket and one shared heartbeat timer.
 *
 * Every listener is counted three ways, each with its maximum: per app (here), per client address
 * and in the whole process (`bounds`, limits/held.ts). A newcomer over its app's or its client's
 * share is refused with `refuse`. With the process full, a newcomer whose app holds fewer takes
 * one back from the app holding the most (held.ts, issue 33): that app's oldest wait is answered
 * as without waiting, or its oldest stream ends with a comment saying why (the client resumes
 * with Last-Event-ID, as at the stream's maximum life). So the addresses and apps of an attacker
 * never leave another app without a stream or a wait.
 */
export function createHub(
  store: Pick<Store, 'seqs'>,
  refuse: Refuse,
  bounds: HubBounds,
  options: HubOptions = {},
) {
  const { maxWaiters, maxSubscribers, heartbeatMs } = { ...HUB_DEFAULTS, ...options }
  const perApp = (what: string, max: number, setting: string, appKey: string, client: string) => {
    const message = `too many ${what}: at most ${max} per app at a time (${setting})`
    bounds.refusals.refused(`${what} per app`, `${client} (app ${appKey})`, message)
    return refuse(message, 429)
  }
  /** Takes one of `bound` for `client` (its app's share), or refuses in the control plane's words. */
  const take = (bound: HeldBound, client: string, holding: Holding): (() => void) => {
    try {
      return bound.take(client, holding)
    } catch (err) {
      if (err instanceof OverBound) throw refuse(err.message, err.status)
      throw err
    }
  }
  const apps = new Map<string, Listeners>()
  let pending = new Map<string, Set<SeqTopic>>()
  let scheduled = false
  let heartbeat: NodeJS.Timeout | undefined
  let closed = false

  const of = (appKey: string): Listeners => {
    let l = apps.get(appKey)
    if (!l) {
      l = { waiters: new Set(), subscribers: new Set() }
      apps.set(appKey, l)
    }
    return l
  }
  const forgetIfIdle = (appKey: string) => {
    const l = apps.get(appKey)
    if (l && l.waiters.size === 0 && l.subscribers.size === 0) apps.delete(appKey)
  }

  // Off the writer's callback: the next commit does not wait for the readers, and the marks of
  // the commits of one turn are read once.
  function committed(marks: Marks): void {
    for (const [appKey, topics] of marks) {
      const known = pending.get(appKey)
      if (known) for (const t of topics) known.add(t)
      else pending.set(appKey, new Set(topics))
    }
    if (scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      const woken = pending
      pending = new Map()
      for (const [appKey, topics] of woken) {
        const l = apps.get(appKey)
        if (!l) continue
        for (const w of [...l.waiters]) {
          if (topics.has('reset')) w.release()
          else if (w.topic === 'any' || topics.has(w.topic)) w.wake()
        }
        for (const s of [...l.subscribers]) s.wake()
      }
    })
  }
  store.seqs.watch({ listened: appKey => apps.has(appKey), committed })

  return {
    /** The bounds of each event stream (subscriber.ts). */
    streamOptions: options.stream ?? {},
    /**
     * Holds a request until `read` finds something after a commit of `topic` for the app (then
     * resolves with it), or for `ms` of real time, the client hanging up, the app's reset or the
     * sandbox closing (then resolves undefined: answer as without waiting).
     */
    waitFor<T>(
      who: { appKey: string; client: string },
      topic: WaitTopic,
      ms: number,
      res: ServerResponse,
      read: () => T | undefined,
    ): Promise<T | undefined> {
      if (closed) return Promise.resolve(undefined)
      const { appKey, client } = who
      const l = of(appKey)
      if (l.waiters.size >= maxWaiters) {
        forgetIfIdle(appKey)
        throw perApp('requests waiting', maxWaiters, 'MAX_WAITING_REQUESTS_PER_APP', appKey, client)
      }
      let waiter: Waiter | undefined
      const letGo = take(bounds.waiting, client, { owner: appKey, evict: () => waiter?.release() })
      return hold(
        l.waiters,
        { topic, ms, res, read },
        () => {
          letGo()
          forgetIfIdle(appKey)
        },
        made => {
          waiter = made
        },
      )
    },

    /** Adds an event stream of the app, opened by `client`; returns how to remove it (once). */
    subscribe(who: { appKey: string; client: string }, subscriber: Subscriber): () => void {
      const { appKey, client } = who
      const l = of(appKey)
      if (l.subscribers.size >= maxSubscribers) {
        forgetIfIdle(appKey)
        throw perApp('event streams', maxSubscribers, 'MAX_EVENT_STREAMS_PER_APP', appKey, client)
      }
      const letGo = take(bounds.eventStreams, client, {
        owner: appKey,
        evict: () =>
          subscriber.close(
            'the sandbox holds its most event streams (MAX_EVENT_STREAMS): this one ended to make room for an app holding fewer; reconnect with Last-Event-ID',
          ),
      })
      l.subscribers.add(subscriber)
      heartbeat ??= setInterval(() => {
        for (const a of apps.values()) for (const s of a.subscribers) s.heartbeat()
      }, heartbeatMs).unref()
      let removed = false
      return () => {
        if (removed) return
        removed = true
        letGo()
        l.subscribers.delete(subscriber)
        forgetIfIdle(appKey)
        if (![...apps.values()].some(a => a.subscribers.size > 0)) {
          clearInterval(heartbeat)
          heartbeat = undefined
        }
      }
    },

    /** The sandbox closes: every held request is answered and every stream ended, now. */
    close(): void {
      closed = true
      for (const l of [...apps.values()]) {
        for (const w of [...l.waiters]) w.release()
        for (const s of [...l.subscribers]) s.close()
      }
      clearInterval(heartbeat)
      heartbeat = undefined
    },

    /**
     * The app was removed for good (DELETE /_sandbox/app): its held requests are answered as
     * without waiting, its streams end. Call once the removal is durable.
     */
    appRemoved(appKey: string): void {
      const l = apps.get(appKey)
      if (!l) return
      for (const w of [...l.waiters]) w.release()
      for (const s of [...l.subscribers]) s.close('the app was removed')
    },

    /** How many listen to the app (tests and the stream's own bounds). */
    count(appKey: string): { waiters: number; subscribers: number } {
      const l = apps.get(appKey)
      return { waiters: l?.waiters.size ?? 0, subscribers: l?.subscribers.size ?? 0 }
    },
  }
}

export type Hub = ReturnType<typeof createHub>

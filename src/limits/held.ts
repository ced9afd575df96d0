import type { Config } from '../config.js'

/**
 * A newcomer refused by a bound on what the process holds: each surface answers it in its own
 * envelope (http/error-handler.ts) with this status — 429 when the client is over its own share,
 * 503 when the whole sandbox is full — and a message that names the bound and the setting that
 * raises it. Not an ApiError: the code is the surface's, not ours.
 */
export class OverBound extends Error {
  constructor(
    readonly status: 429 | 503,
    message: string,
  ) {
    super(message)
    this.name = 'OverBound'
  }
}

/** Where a refusal is told: a `warn` line, at most one a minute per bound (the app's logger). */
export interface RefusalLogger {
  warn(fields: object, msg: string): void
}

const MINUTE_MS = 60_000

/**
 * One `warn` line a minute per bound, naming who hit it and how many were refused since the last
 * line: a flood of refusals leaves a line a minute, not one per refusal, and the operator still
 * learns who. Real time: bounds are about the process, not an app's clock.
 */
export function createRefusalLog(log: RefusalLogger | undefined, now: () => number = Date.now) {
  const lines = new Map<string, { at: number; unlogged: number }>()
  const refused: Record<string, number> = {}
  return {
    refused(bound: string, who: string, message: string): void {
      refused[bound] = (refused[bound] ?? 0) + 1
      const t = now()
      const line = lines.get(bound)
      if (line && t >= line.at && t < line.at + MINUTE_MS) {
        line.unlogged++
        return
      }
      log?.warn(
        { bound, client: who, refusedSinceLastLine: (line?.unlogged ?? 0) + 1 },
        `bound reached: ${message}`,
      )
      lines.set(bound, { at: t, unlogged: 0 })
    },
    /** Refusals per bound since the start (the metrics read them). */
    counts: (): Readonly<Record<string, number>> => ({ ...refused }),
  }
}

export type RefusalLog = ReturnType<typeof createRefusalLog>

/** A maximum, and the setting that changes it (named in every refusal). */
export interface Maximum {
  max: number
  setting: string
}

/**
 * One thing held for a client, as its bound sees it: whose share it counts in when the process is
 * full, and how to end it to make room for someone holding fewer.
 */
export interface Holding {
  /**
   * Whose share it is when the process is full: the app for what belongs to one (event streams,
   * waits), so that clients behind one address (a NAT, Docker's gateway) are told apart; by default
   * the client address (connections, TLS handshakes: no app is known yet).
   */
  owner?: string
  /**
   * Ends it to make room (the bound has let it go already, and ignores the release that follows).
   * Absent: it is never taken back.
   */
  evict?: () => void
  /** Whether it may be taken back now (a connection only while idle); absent: whenever asked. */
  evictable?: () => boolean
}

interface Taken {
  client: string
  owner: string
  holding: Holding
  released: boolean
}

/**
 * One kind of thing the process holds for its clients (connections, TLS handshakes, event streams,
 * requests held by `wait=`, connections closing after a pipelined burst), counted per client
 * address and in total, each with its maximum. A client over its share is refused before the
 * total is: one client can never fill the process.
 *
 * Nor can a handful of them (issue 33): with the process full, a newcomer whose owner (its app, or
 * its address) holds at least two fewer than the busiest owner takes that owner's oldest holding
 * back (`evict`: a wait is answered as without waiting, a stream ends and resumes with
 * Last-Event-ID, a stalled handshake or an idle connection is closed) instead of being refused.
 * So however many addresses fill the process, an owner holding nothing always gets one, and
 * owners that hold the same never take from each other (no churn between equals). Only when every
 * owner holds about as many as the newcomer is it refused with 503.
 */
export function createHeldBound(
  what: string,
  limits: { perClient: Maximum; total: Maximum },
  refusals: RefusalLog,
) {
  const byClient = new Map<string, number>()
  /** Each owner's holdings, oldest first (a Set keeps the order they were added in). */
  const byOwner = new Map<string, Set<Taken>>()
  let total = 0

  function release(h: Taken): void {
    if (h.released) return
    h.released = true
    const mine = byClient.get(h.client) ?? 0
    if (mine <= 1) byClient.delete(h.client)
    else byClient.set(h.client, mine - 1)
    const owned = byOwner.get(h.owner)
    owned?.delete(h)
    if (owned?.size === 0) byOwner.delete(h.owner)
    if (total > 0) total--
  }

  /**
   * The process is full: the oldest holding that can be taken back from the busiest owner holding
   * at least two more than `owner`, taken back; false when there is none.
   */
  function makeRoom(owner: string, client: string): boolean {
    const mine = byOwner.get(owner)?.size ?? 0
    const busier = [...byOwner]
      .filter(([, held]) => held.size >= mine + 2)
      .sort((a, b) => b[1].size - a[1].size)
    for (const [busiest, held] of busier) {
      for (const h of held) {
        if (!h.holding.evict || h.holding.evictable?.() === false) continue
        release(h)
        refusals.refused(
          `${what} taken back`,
          h.client,
          `${what} in the sandbox at their maximum of ${limits.total.max} (${limits.total.setting}): ` +
            `one of ${busiest}'s ${held.size + 1} ended to make room for ${owner === client ? client : `${owner} (${client})`}, which held ${mine}`,
        )
        h.holding.evict()
        return true
      }
    }
    return false
  }

  return {
    /**
     * Holds one more for `client`, or throws OverBound (and logs it, once a minute per bound).
     * Returns what lets it go (exactly once; again, or after it was taken back, does nothing).
     */
    take(client: string, holding: Holding = {}): () => void {
      const mine = byClient.get(client) ?? 0
      if (mine >= limits.perClient.max) {
        const message = `too many ${what} from ${client}: at most ${limits.perClient.max} at a time per client (${limits.perClient.setting})`
        refusals.refused(`${what} per client`, client, message)
        throw new OverBound(429, message)
      }
      const owner = holding.owner ?? client
      if (total >= limits.total.max && !makeRoom(owner, client)) {
        const message = `too many ${what} in the sandbox: at most ${limits.total.max} at a time (${limits.total.setting})`
        refusals.refused(`${what} in total`, client, message)
        throw new OverBound(503, message)
      }
      const h: Taken = { client, owner, holding, released: false }
      byClient.set(client, (byClient.get(client) ?? 0) + 1)
      let owned = byOwner.get(owner)
      if (!owned) {
        owned = new Set()
        byOwner.set(owner, owned)
      }
      owned.add(h)
      total++
      return () => release(h)
    },
    /** How many are held now, in total. */
    get held(): number {
      return total
    },
    /** How many `client` holds now. */
    of: (client: string): number => byClient.get(client) ?? 0,
  }
}

export type HeldBound = ReturnType<typeof createHeldBound>

/** What the process holds now, and what was refused: the shape the metrics read. */
export interface HeldCounts {
  connections: number
  tlsHandshakes: number
  eventStreams: number
  waiting: number
  /** Connections that refused a pipelined request and close once they have answered the rest. */
  closing: number
  /** Bytes of answers written but not yet read by their clients (http/socket/connections.ts). */
  unreadBytes: number
  /** Refusals since the start, per bound (`connections per client`, `event streams in total`…). */
  refused: Readonly<Record<string, number>>
}

export type HeldSettings = Pick<
  Config,
  | 'maxConnections'
  | 'maxConnectionsPerClient'
  | 'maxTlsHandshakes'
  | 'maxTlsHandshakesPerClient'
  | 'maxEventStreams'
  | 'maxEventStreamsPerClient'
  | 'maxWaiting'
  | 'maxWaitingPerClient'
  | 'maxTransfers'
  | 'maxTransfersPerClient'
  | 'maxClosingConnections'
  | 'maxClosingConnectionsPerClient'
>

/**
 * Every per-client and process-wide bound on what is held, in one object: the connections and
 * those closing after a pipelined burst (http/socket/connections.ts), the TLS handshakes
 * (tls/listener.ts), the event streams and the requests held by `wait=` (events/hub.ts), the
 * exports and imports of app documents. `counts()` is what an operator's metrics read.
 */
export function createHeld(config: HeldSettings, log?: RefusalLogger) {
  const refusals = createRefusalLog(log)
  let unreadBytes = () => 0
  return {
    refusals,
    connections: createHeldBound(
      'connections',
      {
        perClient: { max: config.maxConnectionsPerClient, setting: 'MAX_CONNECTIONS_PER_CLIENT' },
        total: { max: config.maxConnections, setting: 'MAX_CONNECTIONS' },
      },
      refusals,
    ),
    tlsHandshakes: createHeldBound(
      'TLS handshakes',
      {
        perClient: { max: config.maxTlsHandshakesPerClient, setting: 'MAX_TLS_HANDSHAKES_PER_CLIENT' },
        total: { max: config.maxTlsHandshakes, setting: 'MAX_TLS_HANDSHAKES' },
      },
      refusals,
    ),
    eventStreams: createHeldBound(
      'event streams',
      {
        perClient: { max: config.maxEventStreamsPerClient, setting: 'MAX_EVENT_STREAMS_PER_CLIENT' },
        total: { max: config.maxEventStreams, setting: 'MAX_EVENT_STREAMS' },
      },
      refusals,
    ),
    waiting: createHeldBound(
      'requests waiting',
      {
        perClient: { max: config.maxWaitingPerClient, setting: 'MAX_WAITING_REQUESTS_PER_CLIENT' },
        total: { max: config.maxWaiting, setting: 'MAX_WAITING_REQUESTS' },
      },
      refusals,
    ),
    /**
     * Exports and imports of app documents under way (across/app/transfer.ts): each reads or
     * writes every row of an app, a page at a time, for as long as its client sends or reads.
     */
    transfers: createHeldBound(
      'exports and imports',
      {
        perClient: { max: config.maxTransfersPerClient, setting: 'MAX_TRANSFERS_PER_CLIENT' },
        total: { max: config.maxTransfers, setting: 'MAX_TRANSFERS' },
      },
      refusals,
    ),
    closing: createHeldBound(
      'connections closing after a pipelined burst',
      {
        perClient: {
          max: config.maxClosingConnectionsPerClient,
          setting: 'MAX_CLOSING_CONNECTIONS_PER_CLIENT',
        },
        total: { max: config.maxClosingConnections, setting: 'MAX_CLOSING_CONNECTIONS' },
      },
      refusals,
    ),
    /** The connections' module says how many bytes its clients have not read. */
    measureUnread(measure: () => number): void {
      unreadBytes = measure
    },
    counts(): HeldCounts {
      return {
        connections: this.connections.held,
        tlsHandshakes: this.tlsHandshakes.held,
        eventStreams: this.eventStreams.held,
        waiting: this.waiting.held,
        closing: this.closing.held,
        unreadBytes: unreadBytes(),
        refused: refusals.counts(),
      }
    },
  }
}

export type Held = ReturnType<typeof createHeld>

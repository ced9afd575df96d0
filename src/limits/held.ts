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
 * One kind of thing the process holds for its clients (connections, TLS handshakes, event streams,
 * requests held by `wait=`), counted per client address and in total, each with its maximum. A
 * client over its share is refused before the total is: one client can never fill the process.
 */
export function createHeldBound(
  what: string,
  limits: { perClient: Maximum; total: Maximum },
  refusals: RefusalLog,
) {
  const byClient = new Map<string, number>()
  let total = 0
  return {
    /** Holds one more for `client`, or throws OverBound (and logs it, once a minute per bound). */
    take(client: string): void {
      const mine = byClient.get(client) ?? 0
      if (mine >= limits.perClient.max) {
        const message = `too many ${what} from ${client}: at most ${limits.perClient.max} at a time per client (${limits.perClient.setting})`
        refusals.refused(`${what} per client`, client, message)
        throw new OverBound(429, message)
      }
      if (total >= limits.total.max) {
        const message = `too many ${what} in the sandbox: at most ${limits.total.max} at a time (${limits.total.setting})`
        refusals.refused(`${what} in total`, client, message)
        throw new OverBound(503, message)
      }
      byClient.set(client, mine + 1)
      total++
    },
    /** One of `client`'s is let go (exactly once per `take` that succeeded). */
    give(client: string): void {
      const mine = byClient.get(client) ?? 0
      if (mine <= 1) byClient.delete(client)
      else byClient.set(client, mine - 1)
      if (total > 0) total--
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
>

/**
 * Every per-client and process-wide bound on what is held, in one object: the connections
 * (http/socket/connections.ts), the TLS handshakes (tls/listener.ts), the event streams and the requests
 * held by `wait=` (events/hub.ts). `counts()` is what an operator's metrics read.
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
     * Exports and imports of app documents under way (sandbox/app/transfer.ts): each reads or
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
        unreadBytes: unreadBytes(),
        refused: refusals.counts(),
      }
    },
  }
}

export type Held = ReturnType<typeof createHeld>

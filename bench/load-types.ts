// What a load round takes and what its generator (autocannon.ts, wrk.ts) reports.

/**
 * A request body. Each `{{mobile}}` becomes a new mainland mobile (13 + 9 digits, counting up from
 * `start`), so the per-mobile frequency limits never trip; each `{{alias}}` a device alias
 * `u<n>` spread over `aliases` devices. The template is expanded inside the load generator's own
 * process, never in a process the figures are about.
 */
export interface BodyTemplate {
  template: string
  start?: number
  aliases?: number
}

export interface LoadOptions {
  url: string
  method?: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string | BodyTemplate
  connections?: number
  durationSeconds?: number
  /** The server's pid: its CPU time per request is measured too. */
  pid?: number | undefined
  /**
   * Count in the CPU/req the work the round leaves behind (the scheduler storing the reports of
   * its messages when they arrive, REPORT_DELAY_MS later): CPU is read once the server is idle.
   */
  settle?: boolean
  /**
   * Several apps' credentials, one request each in turn (with a body template): the load of
   * several tenants at once.
   */
  authorizations?: string[]
}

/** What a generator reports for one round. */
export interface RawRound {
  requests: number
  seconds: number
  /** Answers with a status ≥ 400 (wrk counts those; autocannon its non-2xx). */
  non2xx: number
  /** Connect, read, write errors and timeouts. */
  errors: number
  /** Latency percentiles in ms. */
  p50: number
  p99: number
}

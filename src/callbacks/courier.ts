import type { FastifyBaseLogger } from 'fastify'
import type * as Undici from 'undici'
import type { Agent, Dispatcher } from 'undici'
import type { AppResets } from '../app-resets.js'
import { appNow, type Clock } from '../clock.js'
import type { Config } from '../config.js'
import { callbackItem } from '../items/views.js'
import { lazy } from '../lazy.js'
import type { DueWork } from '../scheduler/due-work.js'
import { CALLBACKS_DUE, type Callback } from '../store/callbacks/outbox.js'
import type { Store } from '../store/index.js'
import { type Outgoing, outgoing } from './outgoing.js'
import { guardedLookup, refusedTarget } from './targets.js'
import { checkCallbackUrl } from './url-check.js'

const undici = lazy<typeof Undici>('undici')

const CLAIM_BATCH = 100

export interface CourierDeps {
  store: Store
  clock: Clock
  config: Config
  log: FastifyBaseLogger
  /** Where callbacks go out (tests inject one); by default an undici Agent of its own. */
  dispatcher?: Dispatcher | undefined
  /** An app reset or removed while its attempts are on the wire: their outcome is not recorded. */
  appResets?: AppResets | undefined
}

/** Its writes record attempts: each is a callback.attempt event. */
const ATTEMPT = { announces: ['callback.attempt'] } as const

/**
 * Delivers the callback outbox over HTTP. Requests run in the background with timeouts, so a
 * receiver that hangs or fails never holds up the API or the scheduler's other work; `settled`
 * lets the sandbox clock (and shutdown) wait for the attempts already on the wire.
 */
export function createCourier(deps: CourierDeps) {
  const { store, clock, config, log } = deps
  const timeout = config.callbackTimeoutMs
  const allowPrivate = config.callbackAllowPrivate === true
  // Made with the first callback: most runs never call one. Names resolve through the target
  // rule (targets.ts) unless every address is allowed.
  let own: Agent | undefined
  const dispatcher = (): Dispatcher => {
    if (deps.dispatcher) return deps.dispatcher
    own ??= new (undici().Agent)({
      connect: allowPrivate ? { timeout } : { timeout, lookup: guardedLookup },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    })
    return own
  }
  const inflight = new Map<Promise<void>, Callback>()
  // Attempts whose app was reset meanwhile: their callback is gone (its id may be a new one's).
  const dropped = new WeakSet<Callback>()
  deps.appResets?.onAppReset(appKey => {
    for (const c of inflight.values()) if (c.appKey === appKey) dropped.add(c)
  })

  async function post({
    url,
    body,
    headers,
  }: Outgoing): Promise<{ statusCode: number | null; error: string | null }> {
    try {
      const refused = refusedTarget(new URL(url), allowPrivate)
      if (refused) return { statusCode: null, error: refused }
      const res = await undici().request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher: dispatcher(),
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      })
      await res.body.dump()
      const ok = res.statusCode >= 200 && res.statusCode < 300
      return { statusCode: res.statusCode, error: ok ? null : `receiver answered HTTP ${res.statusCode}` }
    } catch (err) {
      return { statusCode: null, error: describe(err) }
    }
  }

  async function attempt(c: Callback): Promise<void> {
    const app = store.apps.get(c.appKey)
    const at = app ? appNow(clock, app) : clock.now()
    let out: Outgoing | undefined
    let result: { statusCode: number | null; error: string | null } = noUrl
    try {
      out = app ? outgoing(app, c, at) : undefined
      if (out) result = await post(out)
    } catch (err) {
      // Its row holds what no callback can be made of (a database edited by hand): it fails
      // alone, recorded and logged with its app; the others go on.
      log.error({ err, app_key: c.appKey, callback: c.id }, 'callback cannot be made: it fails alone')
      out = undefined
      result = { statusCode: null, error: `the callback cannot be made: ${describe(err)}` }
    }
    const url = out ? out.url : null
    const delivered = result.error === null
    const delay = out?.retryDelaysMs[c.attempts - 1]
    // Without a URL there is nothing to retry against.
    const next = delivered || !url || delay === undefined ? undefined : at + delay
    // Asked inside the write: a reset marks its app's attempts inside its own write (app-resets.ts).
    await store.write(ATTEMPT, () => {
      if (dropped.has(c))
        return log.info(
          { app_key: c.appKey, callback: c.id },
          'callback attempt not recorded: its app was reset',
        )
      const seq = store.callbacks.recordAttempt(
        c,
        { attempt: c.attempts, url: url ?? '', at, ...result },
        { delivered, next },
      )
      // The callback as GET /_sandbox/callbacks shows it after this attempt (gone with its app).
      const logged = store.callbacks.get(c.appKey, c.id)
      if (logged)
        store.events.append({
          appKey: c.appKey,
          type: 'callback.attempt',
          data: callbackItem(logged),
          at,
          seq,
        })
    })
  }

  /**
   * Inside the claim's write: a callback whose data does not read (a database edited by hand; an
   * import refuses such a row) is failed at once, with an attempt that says why, and logged with
   * its app. Only that callback: every other app's go out as usual.
   */
  function failUnreadable(c: Callback): void {
    const app = store.apps.get(c.appKey)
    const at = app ? appNow(clock, app) : clock.now()
    const error = 'its data is not a JSON object: it cannot be sent'
    log.error({ app_key: c.appKey, callback: c.id }, `callback ${c.id} of ${c.appKey} failed: ${error}`)
    const seq = store.callbacks.recordAttempt(
      c,
      { attempt: c.attempts, url: '', at, statusCode: null, error },
      { delivered: false },
    )
    const logged = store.callbacks.get(c.appKey, c.id)
    if (logged && seq !== undefined)
      store.events.append({ appKey: c.appKey, type: 'callback.attempt', data: callbackItem(logged), at, seq })
  }

  function track(c: Callback): void {
    const p: Promise<void> = attempt(c)
      .catch(err => {
        store.health.observe(err)
        log.error({ err, app_key: c.appKey, callback: c.id }, 'callback attempt failed to record')
      })
      .finally(() => inflight.delete(p))
    inflight.set(p, c)
  }

  return {
    /** Claims every due callback and sends them in the background. */
    async dispatchDue(): Promise<void> {
      for (;;) {
        const { claimed, unreadable } = await store.write(ATTEMPT, () => {
          const due = store.callbacks.claimDue(clock.now(), CLAIM_BATCH)
          for (const c of due.unreadable) failUnreadable(c)
          return due
        })
        for (const c of claimed) track(c)
        if (claimed.length + unreadable.length < CLAIM_BATCH) return
      }
    },
    /** Waits for the attempts on the wire (of one app, or all). */
    async settled(appKey?: string): Promise<void> {
      const waiting = [...inflight]
        .filter(([, c]) => appKey === undefined || c.appKey === appKey)
        .map(([p]) => p)
      await Promise.all(waiting)
    },
    /** The vendor's echostr check of a callback URL (url-check.ts): why it fails, or undefined. */
    checkUrl(url: string): Promise<string | undefined> {
      return checkCallbackUrl(url, { dispatcher: dispatcher(), timeoutMs: timeout, allowPrivate })
    },
    async close(): Promise<void> {
      await Promise.all(inflight.keys())
      await own?.close()
    },
  }
}

/**
 * The callbacks entry of the due-work list (scheduler/due-work.ts; the list: src/app.ts): each
 * callback goes out at its next attempt, through `courier`, whose requests on the wire a clock
 * move and the scheduler's stop wait for.
 */
export function dueCallbacks<D extends Pick<CourierDeps, 'store' | 'log'>>(courier: Courier): DueWork<D> {
  return {
    name: 'callbacks',
    nextDue: [CALLBACKS_DUE],
    run: () => courier.dispatchDue(),
    settled: appKey => courier.settled(appKey),
    start({ store, log }) {
      const redone = store.callbacks.resetInterrupted()
      if (redone > 0)
        log.warn({ callbacks: redone }, 'callbacks interrupted by the last shutdown will be resent')
    },
  }
}

const noUrl = { statusCode: null, error: 'the app has no callback URL' }

function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout'
  return [e.code, e.message].filter(Boolean).join(': ') || String(err)
}

export type Courier = ReturnType<typeof createCourier>

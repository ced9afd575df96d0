import type { FastifyReply, FastifyRequest } from 'fastify'
import { appNow, type Clock, systemClock } from '../clock.js'
import type { App } from '../store/apps/apps.js'
import { collectIds, createdIds, type JournalEntry } from '../store/events/requests.js'
import type { Store } from '../store/index.js'
import { basicUser } from './auth/basic-user.js'
import { redactUrl } from './request-log.js'
import { routeConfig } from './route-config.js'

// What the request journal keeps of one answered request (migration 014), made in the request's
// onSend hook from what the request already holds: its tenant (or the appKey its refused
// credentials name: a stranger's entry, kept apart from the app's own, migration 019), its
// refusal with the reason (error-handler.ts), the body's text as the body parser read it, and the
// answer's text. Nothing here runs a statement: the store writes the
// entries with its next group commit (store/events/requests.ts).

/** Each body is kept up to this many characters (the rest is counted, not kept). */
export const JOURNAL_BODY_CAP = 4096
const BODY_CAP = JOURNAL_BODY_CAP
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Which surface a path is on (`//v1` is `/v1`: the router forgives it), or none the journal keeps. */
function surfaceOf(url: string): 'sms' | 'push' | 'sandbox' | undefined {
  let i = 0
  while (url.charCodeAt(i + 1) === 47 /* / */) i++
  const p = url.slice(i, i + 9).toLowerCase()
  if (p.startsWith('/v1/') || p === '/v1' || p.startsWith('/v1?')) return 'sms'
  if (p.startsWith('/v3/') || p === '/v3' || p.startsWith('/v3?')) return 'push'
  if (p.startsWith('/_sandbox')) return 'sandbox'
  return undefined
}

/**
 * Fastify's onSend hook, on the whole app (app.ts): records each answered request the journal
 * keeps (every /v1 and /v3 call naming an app, every /_sandbox write).
 */
export function journalRequests(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps
  return (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, p: unknown) => void,
  ) => {
    const surface = journaled(req)
    if (surface !== undefined) {
      const apps = appsOf(req, appKey => store.apps.get(appKey))
      if (apps.length > 0) recordEntries(req, reply, payload, surface, apps, clock, store.requests.record)
    }
    done(null, payload)
  }
}

/**
 * A preHandler hook of the control plane (app.ts): each of its authenticated requests sees every
 * request answered before it, the journal's entries included, so that a list, a read, an export,
 * a reset or an import never depends on when the next group commit takes the entries
 * (store/events/requests.ts: `settled`, which commits them now). Its public routes (health,
 * readiness, docs) wait for nothing.
 */
export function journalFirst(deps: { store: Store }) {
  const { requests } = deps.store
  return (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    if (routeConfig(req)?.public === true) done()
    else requests.settled().then(() => done(), done)
  }
}

/** Whether the journal keeps this request: every vendor call, and every write of the control plane. */
function journaled(req: FastifyRequest): 'sms' | 'push' | 'sandbox' | undefined {
  const surface = surfaceOf(req.url)
  if (surface === undefined) return undefined
  if (surface === 'sandbox' && READS.has(req.method)) return undefined
  return routeConfig(req)?.journal === false ? undefined : surface
}

/**
 * The apps a request spoke for, as they stand now (a request that moved the app's clock is timed
 * on the clock it moved to): its tenant; the members of a group push; or, refused for its
 * credentials (or on an unknown path), the existing app its appKey names.
 */
function appsOf(req: FastifyRequest, app: (appKey: string) => App | undefined): App[] {
  if (req.tenant) {
    const { app: known } = req.tenant
    return [app(known.appKey) ?? known]
  }
  if (req.group) return req.group.members.map(({ tenant }) => app(tenant.app.appKey) ?? tenant.app)
  const user = basicUser(req.headers.authorization)
  const named = user === undefined ? undefined : app(user)
  return named ? [named] : []
}

// Keys whose values are secrets: credentials, tokens (a JSON body or answer; the query's token is
// redacted by redactUrl). Tested first with one cheap expression: most bodies name none.
const SECRET_WORD = /secret|token|password|authorization/i
const SECRET_VALUE = /("[^"\\]*(?:secret|token|password|authorization)[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi

/** JSON text with every secret's value replaced by "[redacted]". */
export function redact(text: string): string {
  return SECRET_WORD.test(text) ? text.replace(SECRET_VALUE, '$1"[redacted]"') : text
}

/** At most BODY_CAP characters, saying how long the whole was. */
function capped(text: string): string {
  if (text.length <= BODY_CAP) return text
  return `${text.slice(0, BODY_CAP)}… [${Buffer.byteLength(text)} bytes in all]`
}

/** The request body as text: the parser's (json-body.ts), or what a form was. */
function requestText(req: FastifyRequest): string | null {
  if (req.bodyText !== undefined) return req.bodyText === '' ? null : capped(redact(req.bodyText))
  if (Buffer.isBuffer(req.body))
    return `[${req.body.length} bytes of ${req.headers['content-type'] ?? 'a form'}]`
  return null
}

/** The answer as text (a stream or a buffer that is not text is only described). */
function answerText(payload: unknown): string | null {
  if (typeof payload === 'string') return payload === '' ? null : capped(redact(payload))
  if (Buffer.isBuffer(payload)) return payload.length === 0 ? null : capped(redact(payload.toString('utf8')))
  return payload === null || payload === undefined ? null : '[a stream]'
}

/**
 * Ids the path names; and, when the answer is longer than the journal keeps (a 1000-recipient
 * batch), the ids it created. Otherwise those are read from the kept answer when listed
 * (store/events/requests.ts): a send pays nothing for them.
 */
function idsOf(req: FastifyRequest, status: number, payload: unknown): Record<string, string[]> | null {
  const params = req.params as Record<string, unknown> | undefined
  const long = typeof payload === 'string' && payload.length > BODY_CAP && createdIds(req.method, status)
  // Most calls (a send) name nothing in their path, and their answer is kept whole.
  if (!long && !hasKeys(params)) return null
  const ids = collectIds()
  if (params) for (const key in params) ids.add(key, params[key])
  if (long) ids.addAnswer(payload)
  return ids.result()
}

function hasKeys(o: object | undefined): boolean {
  if (o) for (const _ in o) return true
  return false
}

/** Records the entries of one answered request: one per app it spoke for. */
function recordEntries(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  surface: string,
  apps: App[],
  clock: Clock,
  record: (entry: JournalEntry) => void,
): void {
  const url = redactUrl(req.url)
  const q = url.indexOf('?')
  const refusal = req.refusal
  const status = reply.statusCode
  const realAt = systemClock.now()
  const path = q < 0 ? url : url.slice(0, q)
  const query = q < 0 ? null : url.slice(q + 1)
  const ids = idsOf(req, status, payload)
  const durationMs = Math.round(reply.elapsedTime * 1000) / 1000
  const userAgent = userAgentOf(req)
  const requestBody = requestText(req)
  const answerBody = answerText(payload)
  // Neither the app's (or the operator's for it) nor a group's member: a stranger naming the appKey.
  const authenticated = req.tenant !== undefined || req.group !== undefined
  const warnings = req.warnings ?? null
  // Every entry made by this one literal: one shape for the store's loop over them.
  for (const app of apps)
    record({
      appKey: app.appKey,
      at: appNow(clock, app),
      realAt,
      method: req.method,
      path,
      query,
      surface,
      status,
      code: refusal?.code ?? null,
      message: refusal?.message ?? null,
      reason: refusal ? (refusal.reason ?? refusal.message) : null,
      ids,
      durationMs,
      client: req.ip,
      userAgent,
      operator: req.operator === true,
      authenticated,
      requestBody,
      answerBody,
      warnings,
    })
}

function userAgentOf(req: FastifyRequest): string | null {
  const ua = req.headers['user-agent']
  return ua === undefined ? null : ua.slice(0, 256)
}

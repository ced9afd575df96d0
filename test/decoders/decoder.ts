import { expect } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { defaultAuth } from '../helpers.js'

// The official clients' decoders, expressed as data, in one vocabulary for every language:
// - a Request is sent with `send` and comes back as an Answer (status, headers, body bytes);
// - an Endpoint is a success Request with the Shape its body must bind to, and the Failures the
//   client can meet there (each a Request, maybe a fault armed first, its status and vendor code);
// - a Call is an Endpoint as one client makes it: the SDK's file:line, its URL and body encoding,
//   and the Decoder (answer → what the client gives its caller);
// - a Client says how its JSON library binds (Runtime) and what its caller must get (its checks).
// catalogue.ts holds the request bodies, the sandbox state they name, the endpoints every client
// shares and the runner; each client's file cites the SDK's file:line at the commit in its header.

// ---- Requests and answers ----------------------------------------------------------------------

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Request {
  method: Method
  url: string
  /** JSON, serialised as the clients do. */
  body?: unknown
  /** A body sent as it is, with its content type (multipart forms, C#'s text/plain JSON). */
  raw?: { payload: string | Buffer; contentType: string }
  auth?: string
  host?: string
}

export interface Answer {
  status: number
  /** Lower-cased names (inject's), values as sent. */
  headers: Record<string, string | undefined>
  raw: string
  /** The JSON body when the answer says it is JSON (what a Java/Go client binds). */
  body?: unknown
}

/** A request, in the order `call` (test/helpers.ts) takes it: method, URL, JSON body, headers. */
export function req(
  method: Method,
  url: string,
  body?: unknown,
  headers: { authorization?: string; host?: string } = {},
): Request {
  return {
    method,
    url,
    ...(body === undefined ? {} : { body }),
    ...(headers.authorization ? { auth: headers.authorization } : {}),
    ...(headers.host ? { host: headers.host } : {}),
  }
}

export const get = (url: string): Request => req('GET', url)
export const post = (url: string, body?: unknown): Request => req('POST', url, body)

export async function send(app: SandboxApp, request: Request): Promise<Answer> {
  const headers: Record<string, string> = { authorization: request.auth ?? defaultAuth }
  if (request.host) headers.host = request.host
  let payload: string | Buffer | undefined
  if (request.raw) {
    headers['content-type'] = request.raw.contentType
    payload = request.raw.payload
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(request.body)
  }
  const res = await app.inject({ method: request.method, url: request.url, headers, payload })
  const out: Record<string, string | undefined> = {}
  for (const [k, v] of Object.entries(res.headers)) out[k] = v === undefined ? undefined : String(v)
  const json = res.body !== '' && /json/.test(String(out['content-type'])) ? parseJson(res.body) : undefined
  return { status: res.statusCode, headers: out, raw: res.body, ...(json?.ok ? { body: json.value } : {}) }
}

/** JSON.parse, or not JSON, as every client tries it. */
export function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch {
    return { ok: false }
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

// ---- Shapes: what a success body must bind to --------------------------------------------------

/**
 * How a client's JSON library binds a value. Gson (jpush-api-java-client, jsms-api-java-client)
 * and Jackson (jiguang-sdk-java) coerce scalars: a number into a String field, a numeric string
 * into an int. Go's encoding/json (cavlabs/jiguang-sdk-go) does not: a type mismatch fails
 * json.Unmarshal, and the client returns that error instead of the answer. In all three a null
 * leaves the field unset. 'json' is the dynamic languages' (Python, PHP, Ruby, C#'s JObject,
 * Node): the JSON type itself, null only where the shape allows it.
 */
export type Runtime = 'gson' | 'jackson' | 'go' | 'json'

/**
 * A field's type: int is 32 bits (Java int), long 64 (Java long, Go int/int64, a JSON integer);
 * number any JSON number; strings a list of strings.
 */
export type Bind = 'string' | 'int' | 'long' | 'number' | 'boolean' | 'null' | 'array' | 'strings' | 'object'

/** The fields a decoder reads: a key ending in `?` may be absent; a list of types is any of them; a nested Fields is an object, [Fields] a list of them. */
export interface Fields {
  [key: string]: Bind | Bind[] | Fields | [Fields]
}

/** A body: an object's Fields, a JSON array of them, `{}` ('empty-object') or no body at all ('empty'). */
export type Shape = Fields | [Fields] | 'empty' | 'empty-object'

const INT_MAX = 2n ** 31n - 1n
const LONG_MAX = 2n ** 63n - 1n

function integral(v: unknown, max: bigint, coerce: boolean): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && BigInt(Math.abs(v)) <= max
  if (coerce && typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = BigInt(v)
    return (n < 0n ? -n : n) <= max
  }
  return false
}

/** Whether `runtime` binds JSON value `v` to `type` without failing. */
export function binds(runtime: Runtime, type: Bind, v: unknown): boolean {
  if (v === null) return runtime !== 'json' || type === 'null'
  const coerce = runtime === 'gson' || runtime === 'jackson'
  switch (type) {
    case 'string':
      return typeof v === 'string' || (coerce && (typeof v === 'number' || typeof v === 'boolean'))
    case 'int':
      return integral(v, INT_MAX, coerce)
    case 'long':
      return integral(v, LONG_MAX, coerce)
    case 'number':
      return (
        typeof v === 'number' || (coerce && typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)))
      )
    case 'boolean':
      return typeof v === 'boolean'
    case 'null':
      return false
    case 'array':
      return Array.isArray(v)
    case 'strings':
      return Array.isArray(v) && v.every(x => binds(runtime, 'string', x))
    case 'object':
      return typeof v === 'object' && !Array.isArray(v)
  }
}

/** What `runtime` cannot read of `body` against `fields`: one line per problem, [] when it decodes. */
export function problems(runtime: Runtime, body: unknown, fields: Fields, at = ''): string[] {
  if (!isObject(body)) return [`${at || 'body'}: not an object`]
  const out: string[] = []
  for (const [raw, type] of Object.entries(fields)) {
    const optional = raw.endsWith('?')
    const key = optional ? raw.slice(0, -1) : raw
    const path = at ? `${at}.${key}` : key
    if (!(key in body)) {
      if (!optional) out.push(`${path}: absent`)
      continue
    }
    const v = body[key]
    if (typeof type === 'string' || (Array.isArray(type) && typeof type[0] === 'string')) {
      const any = [type].flat() as Bind[]
      if (!any.some(t => binds(runtime, t, v)))
        out.push(`${path}: ${JSON.stringify(v)} is not a ${any.join('|')}`)
    } else if (Array.isArray(type)) {
      if (!Array.isArray(v)) out.push(`${path}: not a list`)
      else
        for (const [i, x] of v.entries())
          out.push(...problems(runtime, x, type[0] as Fields, `${path}[${i}]`))
    } else if (v !== null || runtime === 'json') out.push(...problems(runtime, v, type, path))
  }
  return out
}

/** What `runtime` cannot read of an answer's body against `shape`. */
export function bodyProblems(runtime: Runtime, raw: string, shape: Shape): string[] {
  if (shape === 'empty') return raw === '' ? [] : [`expected an empty body, got ${raw}`]
  const parsed = parseJson(raw)
  if (!parsed.ok) return [`not JSON: ${raw.slice(0, 80)}`]
  const value = parsed.value
  if (shape === 'empty-object')
    return isObject(value) && Object.keys(value).length === 0 ? [] : ['body: not {}']
  if (!Array.isArray(shape)) return problems(runtime, value, shape)
  if (!Array.isArray(value)) return ['body: not a list']
  return value.flatMap((item, i) => problems(runtime, item, shape[0], `[${i}]`))
}

/** The keys of `body` a strict Jackson bean (no @JsonIgnoreProperties(ignoreUnknown)) does not know: each fails its ObjectMapper. */
export function unknownKeys(body: unknown, known: string[]): string[] {
  return Object.keys(body as object).filter(k => !known.includes(k))
}

// ---- What a client reads of an answer ----------------------------------------------------------

/** What a client's decoder gives its caller for one answer. */
export type Outcome =
  /** A value returned (the client's success path). */
  | { kind: 'value'; value: unknown }
  /** A typed failure the caller can catch, with what the client read into it. */
  | { kind: 'error'; type: string; httpCode?: unknown; code?: unknown; message?: unknown }
  /** The client itself breaks on the answer (a TypeError, AttributeError, parse error…). */
  | { kind: 'crash'; reason: string }

export type Decoder = (answer: Answer) => Outcome

export interface Read {
  code: number
  message: string | null
}

/** An error reader (a Java/Go client's exception) as a Decoder: what it reads, or the crash when it cannot. */
export const readError =
  (read: (a: Answer) => Read, type = 'exception'): Decoder =>
  answer => {
    try {
      return { kind: 'error', type, httpCode: answer.status, ...read(answer) }
    } catch (e) {
      return { kind: 'crash', reason: (e as Error).message }
    }
  }

/** `{"error":{"code":<int>,"message":<string>}}`: what a nested-envelope decoder needs, else it throws. */
export function nestedError(runtime: Runtime, body: unknown): Read {
  const found = problems(runtime, body, { error: { code: 'int', message: 'string' } })
  if (found.length > 0) throw new Error(`nested error unreadable: ${found.join('; ')}`)
  const e = (body as { error: { code: number | string; message: string } }).error
  return { code: Number(e.code), message: e.message }
}

/** `{"code":<int>,"message":<string>}` at the top level: what a flat-envelope decoder needs, else it throws. */
export function flatError(runtime: Runtime, body: unknown): Read {
  const found = problems(runtime, body, { code: 'int', message: 'string' })
  if (found.length > 0) throw new Error(`flat error unreadable: ${found.join('; ')}`)
  const e = body as { code: number | string; message: string }
  return { code: Number(e.code), message: e.message }
}

const PARSED = [400, 401, 403, 404, 410, 429]

/**
 * jiguang-common's error reading, shared by jpush-api-java-client and jsms-api-java-client
 * (jpush/jiguang-java-client-common 778febd, src/main/java/cn/jiguang/common/): NativeHttpClient
 * (connection/NativeHttpClient.java:198-232) parses the body of 400, 401, 403, 404, 410 and 429
 * only, with ResponseWrapper.setErrorObject (resp/ResponseWrapper.java:46-85): the first object
 * of a list holding `error`, or the object; `msg_id` as a long; code and message from `error`
 * when present, else from the top level. Any 5xx leaves getErrorCode() at -1
 * (resp/APIRequestException.java:33-39); an unreadable body leaves code 0.
 */
export function responseWrapperError(a: Answer): Read {
  if (!PARSED.includes(a.status)) return { code: -1, message: null }
  const unread = { code: 0, message: null }
  const parsed = parseJson(a.raw)
  if (!parsed.ok) return unread
  let obj = parsed.value
  if (Array.isArray(obj)) obj = obj.find(x => isObject(x) && 'error' in x)
  if (!isObject(obj)) return unread
  if ('msg_id' in obj && !binds('gson', 'long', obj.msg_id)) return unread
  const e = 'error' in obj ? obj.error : obj
  if (!isObject(e)) return unread
  if ('code' in e && !binds('gson', 'int', e.code)) return unread
  return { code: 'code' in e ? Number(e.code) : 0, message: typeof e.message === 'string' ? e.message : null }
}

export const RATE_HEADERS = ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset'] as const

export interface RateLimit {
  limit: number
  remaining: number
  reset: number
}

/** The three rate headers as integers, or undefined when X-Rate-Limit-Limit is absent or one is not an integer. */
export function rateHeaders(headers: Answer['headers']): RateLimit | undefined {
  const int = (h: string) => (headers[h] === undefined ? Number.NaN : Number(headers[h]))
  const rate = {
    limit: int('x-rate-limit-limit'),
    remaining: int('x-rate-limit-remaining'),
    reset: int('x-rate-limit-reset'),
  }
  return Object.values(rate).every(Number.isInteger) ? rate : undefined
}

/** The three X-Rate-Limit headers, as integers, on a /v3 answer. */
export function expectRateHeaders(answer: Answer, remaining?: number) {
  for (const h of RATE_HEADERS) expect(answer.headers[h], h).toMatch(/^\d+$/)
  if (remaining !== undefined) expect(answer.headers['x-rate-limit-remaining']).toBe(String(remaining))
}

// ---- Endpoints, calls and clients --------------------------------------------------------------

/** What an endpoint's requests refer to, made by catalogue.ts's `prepare` in each call's sandbox. */
export interface Ctx {
  app: SandboxApp
  msgId: string
  scheduleId: string
  smsScheduleId: string
  codeMsgId: string
  /** The code the sandbox texted for codeMsgId. */
  code: string
  smsBatchScheduleId: string
  tempId: number
  signId: number
  newAppKey: string
}

type Build = (ctx: Ctx) => Request | Promise<Request>

/** A failure an endpoint answers: its request, and the status and vendor code it must carry. */
export interface Failure {
  /** What makes it fail, in the vendor's words where it has some. */
  name: string
  /** Arms what the failure needs (a fault) before the request. */
  arm?: (ctx: Ctx) => Promise<void>
  request: Build
  status: number
  code: number
  /** The code the client's decoder extracts, when not `code` (e.g. -1: the client does not parse that answer). */
  read?: number
  /** The client reads the rate headers on this answer, and they say the window is spent. */
  spent?: boolean
}

export interface Endpoint {
  /** `METHOD /path` as the vendor documents it. */
  id: string
  success?: {
    request: Build
    /** The documented success body: its fields and their types. */
    shape: Shape
    /** A strict Jackson bean: every key of the answer must be one of these. */
    strict?: string[]
    status?: number
  }
  failures: Failure[]
  /** Sandbox state the endpoint needs beyond `prepare` (a group to push through). */
  setup?: (app: SandboxApp) => Promise<void>
}

/** One call of a client: an endpoint as the client makes it, and where (file:line at the commit in the file's header). */
export interface Call extends Endpoint {
  cite: string
  /** The client's decoder for this call, when not the client's own. */
  decode?: Decoder
  /** The URL as the client forms it (double or trailing slashes), from the vendor's path. */
  url?: (url: string) => string
  /** The body as the client encodes it (C#: JSON as text/plain). */
  encode?: (request: Request) => Request
}

/**
 * An endpoint of the catalogue as one client calls it: where in the client's source (`cite`), and
 * what the client does its own way: a strict bean's keys, its decoder, the URL it forms, another
 * answer it takes for its success.
 */
export function called(
  endpoint: Endpoint,
  cite: string,
  how: Partial<Pick<Call, 'decode' | 'url' | 'encode' | 'success'>> & { strict?: string[] } = {},
): Call {
  const { strict, ...own } = how
  const success = endpoint.success && strict ? { ...endpoint.success, strict } : endpoint.success
  return { ...endpoint, ...(success ? { success } : {}), ...own, cite }
}

/** A URL as the typed SDKs form it where others add a trailing slash (GET /v3/tags). */
export const noTrailingSlash = (url: string) => url.replace(/\/(?=\?|$)/, '')

/** A client: how it binds a success, its decoder, and what its caller must get from each answer. */
export interface Client {
  runtime: Runtime
  decode?: Decoder
  /** What the decoder must make of the success answer (beyond binding the shape). */
  success?(outcome: Outcome, answer: Answer, call: Call): void
  /** What the decoder must make of one documented failure. */
  failure(outcome: Outcome, answer: Answer, failure: Failure, call: Call): void
}

/**
 * A client that throws on a failure with the code its error reader extracts (the Java and Go
 * clients): the caller catches that code (or `read`), and, when `spent`, rate headers that say so.
 */
export function throwing(c: {
  runtime: Runtime
  /** The code and message the client's error path extracts from a failure (throws when it cannot). */
  error(a: Answer): Read
  /** What the client makes of the rate headers (undefined when it does not read them). */
  rate?(a: Answer): RateLimit | undefined
  /** What the client requires of every success beyond its fields (jiguang-sdk-java: a JSON content type). */
  accepts?(a: Answer): string[]
}): Client {
  return {
    runtime: c.runtime,
    decode: readError(c.error),
    success(_outcome, answer) {
      expect(c.accepts?.(answer) ?? []).toEqual([])
    },
    failure(outcome, answer, failure) {
      expect(outcome, answer.raw).toMatchObject({ kind: 'error', code: failure.read ?? failure.code })
      if (failure.spent) expect(c.rate?.(answer)).toMatchObject({ remaining: 0 })
    },
  }
}

/** JSON sent as `text/plain; charset=utf-8`, as C#'s `new StringContent(json, Encoding.UTF8)` does. */
export const asTextPlain = (request: Request): Request =>
  request.body === undefined
    ? request
    : {
        ...request,
        body: undefined,
        raw: { payload: JSON.stringify(request.body), contentType: 'text/plain; charset=utf-8' },
      }

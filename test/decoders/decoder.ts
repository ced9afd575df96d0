import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, basic, call } from '../helpers.js'

// The official clients' decoders, expressed as data: for each endpoint a client calls, what its
// code reads from the answer (error envelope, fields and their JSON types, rate headers), checked
// against what the sandbox answers for success and for the failures the client can meet there.
// Each client's file cites the SDK's file:line at the commit named in its header.

export type Answer = Awaited<ReturnType<typeof call>>

/**
 * How a client's JSON library binds a value. Gson (jpush-api-java-client, jsms-api-java-client)
 * and Jackson (jiguang-sdk-java) coerce scalars: a number into a String field, a numeric string
 * into an int. Go's encoding/json (cavlabs/jiguang-sdk-go) does not: a type mismatch fails
 * json.Unmarshal, and the client returns that error instead of the answer.
 */
export type Runtime = 'gson' | 'jackson' | 'go'

/** The Java/Go type a field is bound to: int is 32 bits (Java int), long 64 (Java long, Go int/int64). */
export type Bind = 'string' | 'int' | 'long' | 'boolean' | 'array' | 'object' | 'strings'

/** The fields a decoder reads: a key ending in `?` may be absent; a nested Spec is an object, [Spec] a list of them. */
export interface Spec {
  [key: string]: Bind | Spec | [Spec]
}

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

/** Whether `runtime` binds JSON value `v` to `type` without failing (null leaves a field unset in all three). */
export function binds(runtime: Runtime, type: Bind, v: unknown): boolean {
  if (v === null) return true
  const coerce = runtime !== 'go'
  switch (type) {
    case 'string':
      return typeof v === 'string' || (coerce && (typeof v === 'number' || typeof v === 'boolean'))
    case 'int':
      return integral(v, INT_MAX, coerce)
    case 'long':
      return integral(v, LONG_MAX, coerce)
    case 'boolean':
      return typeof v === 'boolean'
    case 'array':
      return Array.isArray(v)
    case 'strings':
      return Array.isArray(v) && v.every(x => binds(runtime, 'string', x))
    case 'object':
      return typeof v === 'object' && !Array.isArray(v)
  }
}

/** What `runtime` cannot read of `body` against `spec`: one line per problem, [] when it decodes. */
export function problems(runtime: Runtime, body: unknown, spec: Spec, at = ''): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [`${at || 'body'}: not an object`]
  const obj = body as Record<string, unknown>
  const out: string[] = []
  for (const [raw, type] of Object.entries(spec)) {
    const optional = raw.endsWith('?')
    const key = optional ? raw.slice(0, -1) : raw
    const path = at ? `${at}.${key}` : key
    if (!(key in obj)) {
      if (!optional) out.push(`${path}: absent`)
      continue
    }
    const v = obj[key]
    if (typeof type === 'string') {
      if (!binds(runtime, type, v)) out.push(`${path}: ${JSON.stringify(v)} is not a ${type}`)
    } else if (Array.isArray(type)) {
      if (!Array.isArray(v)) out.push(`${path}: not a list`)
      else for (const [i, x] of v.entries()) out.push(...problems(runtime, x, type[0], `${path}[${i}]`))
    } else if (v !== null) out.push(...problems(runtime, v, type, path))
  }
  return out
}

/** The keys of `body` a strict Jackson bean (no @JsonIgnoreProperties(ignoreUnknown)) does not know: each fails its ObjectMapper. */
export function unknownKeys(body: unknown, known: string[]): string[] {
  return Object.keys(body as object).filter(k => !known.includes(k))
}

export interface Read {
  code: number
  message: string | null
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
  let obj: unknown
  try {
    obj = JSON.parse(a.raw)
  } catch {
    return unread
  }
  if (Array.isArray(obj)) obj = obj.find(x => typeof x === 'object' && x !== null && 'error' in x)
  if (typeof obj !== 'object' || obj === null) return unread
  const top = obj as Record<string, unknown>
  if ('msg_id' in top && !binds('gson', 'long', top.msg_id)) return unread
  const e = ('error' in top ? top.error : top) as Record<string, unknown>
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return unread
  if ('code' in e && !binds('gson', 'int', e.code)) return unread
  return { code: 'code' in e ? Number(e.code) : 0, message: typeof e.message === 'string' ? e.message : null }
}

// ---- what the sandbox is driven to answer ------------------------------------------------------

export type Run = (app: SandboxApp) => Promise<Answer>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Failure {
  /** What makes it fail, in the vendor's words where it has some. */
  name: string
  run: Run
  status: number
  code: number
  /** The code the client's decoder extracts, when not `code` (e.g. -1: the client does not parse that answer). */
  read?: number
  /** The client reads the rate headers on this answer, and they say the window is spent. */
  spent?: boolean
}

export interface Endpoint {
  endpoint: string
  /** The SDK's file:line of the call and of the result it decodes. */
  cite: string
  success?: {
    run: Run
    /** The fields the result binds, with their types. */
    fields: Spec
    /** Top level is a list of `fields` (the report hosts' answers). */
    list?: boolean
    /** A strict Jackson bean: every key of the answer must be one of these. */
    strict?: string[]
    status?: number
  }
  failures: Failure[]
  /** An error reader other than the client's own (jiguang-sdk-java's template sends read a flat TemplateResult). */
  error?: (a: Answer) => Read
}

export interface ClientDecoder {
  runtime: Runtime
  /** The code and message the client's error path extracts from a failure (throws when it cannot). */
  error(a: Answer): Read
  /** What the client makes of the rate headers (undefined when it does not read them). */
  rate?(a: Answer): RateLimit | undefined
  /** What the client requires of every success beyond its fields (jiguang-sdk-java: a JSON content type). */
  accepts?(a: Answer): string[]
}

export const badAuth = (key = APP_KEY) => ({ authorization: basic(key, 'x'.repeat(24)) })

/** Each host's code for failed Basic authentication (jpush-api.md: push 1004, device 7004, schedule 8101, report 3001). */
function authCode(url: string): number {
  if (url.startsWith('/v1')) return 50002
  if (/^\/v3\/(devices|tags|aliases|test\/model)/.test(url)) return 7004
  if (url.startsWith('/v3/schedules')) return 8101
  if (/^\/v3\/(received|messages|status|users|group\/)/.test(url)) return 3001
  return 1004
}

/** The request with the app key and a wrong master secret: the vendor's 401 with its host's code. */
export function unauthorized(method: Method, url: string, body?: unknown): Failure {
  return {
    name: 'wrong master secret',
    run: app => call(app, method, url, body, badAuth()),
    status: 401,
    code: authCode(url),
  }
}

/** A fault armed on the request's path (control-plane.md#fault-injection), then the request. */
export function faulted(
  method: Method,
  url: string,
  body: unknown,
  fault: { code: number; status: number; name: string },
): Failure {
  return {
    name: `${fault.name} (fault)`,
    run: async app => {
      const armed = await call(app, 'POST', '/_sandbox/faults', {
        method,
        path: url.split('?')[0],
        code: fault.code,
      })
      if (armed.status !== 200) throw new Error(`fault not armed: ${armed.raw}`)
      return call(app, method, url, body)
    },
    status: fault.status,
    code: fault.code,
  }
}

/** A 2002 "request frequency exceeded" armed on the path: 429 with X-Rate-Limit-Remaining 0. */
export const rateLimited = (method: Method, url: string, body?: unknown): Failure => ({
  ...faulted(method, url, body, { code: 2002, status: 429, name: 'rate limit exceeded' }),
  spent: true,
})

/**
 * One describe per endpoint: its success decodes, each failure gives the code the client reads.
 * One sandbox for the file (faults are used up by the request they are armed for).
 */
export function checkEndpoints(client: ClientDecoder, endpoints: Endpoint[]) {
  let app: SandboxApp
  beforeAll(async () => {
    app = await buildApp(testConfig(), { clock: new ManualClock() })
  })
  afterAll(() => app.close())
  for (const e of endpoints) {
    describe(`${e.endpoint} — ${e.cite}`, () => {
      const success = e.success
      if (success) {
        it('success decodes', async () => {
          const a = await success.run(app)
          expect(a.status, a.raw).toBe(success.status ?? 200)
          const items = success.list ? (a.body as unknown[]) : [a.body]
          if (success.list) expect(Array.isArray(a.body), a.raw).toBe(true)
          for (const item of items) expect(problems(client.runtime, item, success.fields), a.raw).toEqual([])
          if (success.strict) expect(unknownKeys(a.body, success.strict), a.raw).toEqual([])
          expect(client.accepts?.(a) ?? []).toEqual([])
        })
      }
      for (const f of e.failures) {
        it(`${f.status} ${f.code}: ${f.name}`, async () => {
          const a = await f.run(app)
          expect(a.status, a.raw).toBe(f.status)
          const read = (e.error ?? client.error)(a)
          expect(read.code, a.raw).toBe(f.read ?? f.code)
          if (f.spent) expect(client.rate?.(a)).toMatchObject({ remaining: 0 })
        })
      }
    })
  }
}

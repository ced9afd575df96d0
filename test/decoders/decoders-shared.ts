import { expect } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { APP_KEY, basic, createTestApp, defaultAuth } from '../helpers.js'
import { ANDROID_1, IOS_1 } from '../push/helpers.js'

// Issue 29, "decoder tests" (Python, PHP, Ruby, C# and Node clients). Each client file models its
// decoder as data: a function from one answer (status, headers, body bytes) to what the client
// gives its caller, written after the client's source (file:line at the commit in the file's
// header). This file drives the sandbox for every endpoint those clients call: its success, a
// wrong secret (401), an armed fault (429 2002 on /v3, a documented JSMS/Admin failure) and, where
// one is cheap, a natural refusal (400 validation, 403/404 unknown id), and checks what the
// decoder makes of each answer.

export interface Answer {
  status: number
  /** Lower-cased names (inject's), values as sent. */
  headers: Record<string, string | undefined>
  raw: string
}

export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  /** JSON, serialised as the clients do. */
  body?: unknown
  /** A body sent as it is, with its content type (multipart forms, C#'s text/plain JSON). */
  raw?: { payload: string | Buffer; contentType: string }
  auth?: string
  host?: string
}

export async function send(app: SandboxApp, req: Request): Promise<Answer> {
  const headers: Record<string, string> = { authorization: req.auth ?? defaultAuth }
  if (req.host) headers.host = req.host
  let payload: string | Buffer | undefined
  if (req.raw) {
    headers['content-type'] = req.raw.contentType
    payload = req.raw.payload
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(req.body)
  }
  const res = await app.inject({ method: req.method, url: req.url, headers, payload })
  const out: Record<string, string | undefined> = {}
  for (const [k, v] of Object.entries(res.headers)) out[k] = v === undefined ? undefined : String(v)
  return { status: res.statusCode, headers: out, raw: res.body }
}

export const WRONG_SECRET = basic(APP_KEY, 'ffffffffffffffffffffffff')
export const DEV_AUTH = basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET)
export const WRONG_DEV_SECRET = basic(DEFAULT_DEV_KEY, 'ffffffffffffffffffffffff')
export const ADMIN_HOST = 'admin.jpush.cn'

/** Arms one fault (docs/control-plane.md#fault-injection) for the default app; throws if refused. */
export async function armFault(
  app: SandboxApp,
  fault: { method?: string; path: string; code: number },
): Promise<void> {
  const res = await send(app, { method: 'POST', url: '/_sandbox/faults', body: { ...fault, times: 1 } })
  if (res.status !== 200) throw new Error(`fault refused: ${res.raw}`)
}

/** What a client's decoder gives its caller for one answer. */
export type Outcome =
  /** A value returned (the client's success path). */
  | { kind: 'value'; value: unknown }
  /** A typed failure the caller can catch, with what the client read into it. */
  | { kind: 'error'; type: string; httpCode?: unknown; code?: unknown; message?: unknown }
  /** The client itself breaks on the answer (a TypeError, AttributeError, parse error…). */
  | { kind: 'crash'; reason: string }

export type Decoder = (answer: Answer) => Outcome

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

// ---- Shapes: the fields a success answer carries, with their JSON types ----

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null'
/** An object's fields and types; `[shape]` a JSON array of such items; 'empty' no body; 'empty-object' `{}`. */
export type Shape = { [field: string]: JsonType | JsonType[] } | [Shape] | 'empty' | 'empty-object'

function typeOf(v: unknown): JsonType {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v as JsonType
}

/** The ways a body differs from `shape` (none when it fits). */
export function shapeErrors(raw: string, shape: Shape): string[] {
  if (shape === 'empty') return raw === '' ? [] : [`expected an empty body, got ${raw}`]
  const parsed = parseJson(raw)
  if (!parsed.ok) return [`not JSON: ${raw.slice(0, 80)}`]
  return valueErrors(parsed.value, shape, '$')
}

function valueErrors(value: unknown, shape: Shape, at: string): string[] {
  if (shape === 'empty') return [`${at}: an item cannot be an empty body`]
  if (shape === 'empty-object')
    return isObject(value) && Object.keys(value).length === 0 ? [] : [`${at}: not {}`]
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${at}: not an array`]
    return value.flatMap((item, i) => valueErrors(item, shape[0], `${at}[${i}]`))
  }
  if (!isObject(value)) return [`${at}: not an object`]
  return Object.entries(shape).flatMap(([field, want]) => {
    const got = typeOf(value[field])
    const allowed = [want].flat()
    return allowed.includes(got) || (got === 'integer' && allowed.includes('number'))
      ? []
      : [`${at}.${field}: ${got}, expected ${allowed.join('|')}`]
  })
}

// ---- The endpoints, with the sandbox state each needs ----

/** What an endpoint's requests refer to, made once per test. */
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

/** Pushes once, makes a JPush schedule, a JSMS schedule, a code and an Admin app: what the calls name. */
export async function prepare(app: SandboxApp): Promise<Ctx> {
  const ok = async (req: Request) => {
    const res = await send(app, req)
    if (res.status !== 200) throw new Error(`${req.method} ${req.url}: ${res.raw}`)
    return JSON.parse(res.raw) as Record<string, string>
  }
  const pushed = await ok({ method: 'POST', url: '/v3/push', body: PUSH })
  const task = await ok({ method: 'POST', url: '/v3/schedules', body: TASK })
  const sms = await ok({ method: 'POST', url: '/v1/schedule', body: SMS_SCHEDULE })
  const code = await ok({ method: 'POST', url: '/v1/codes', body: { mobile: '13800138000', temp_id: 1 } })
  const made = await ok({ method: 'POST', url: '/v1/app', body: ADMIN_APP, auth: DEV_AUTH, host: ADMIN_HOST })
  const texted = await ok({ method: 'GET', url: '/_sandbox/sms/codes/latest?mobile=13800138000' })
  const batch = await ok({
    method: 'POST',
    url: '/v1/schedule/batch',
    body: { temp_id: 2, send_time: SMS_SCHEDULE.send_time, recipients: [RECIPIENT] },
  })
  const template = await ok({ method: 'POST', url: '/v1/templates', body: TEMPLATE })
  const sign = await ok({ method: 'POST', url: '/v1/sign', raw: form({ sign: '解码签名' }) })
  return {
    app,
    msgId: String(pushed.msg_id),
    scheduleId: String(task.schedule_id),
    smsScheduleId: String(sms.schedule_id),
    codeMsgId: String(code.msg_id),
    code: String(texted.code),
    smsBatchScheduleId: String(batch.schedule_id),
    tempId: Number(template.temp_id),
    signId: Number(sign.sign_id),
    newAppKey: String(made.app_key),
  }
}

export const PUSH = {
  platform: 'all',
  audience: { registration_id: [ANDROID_1, IOS_1] },
  notification: { alert: 'decoder' },
}
export const TASK = {
  name: 'decoder_task',
  enabled: true,
  trigger: { single: { time: '2026-01-02 10:00:00' } },
  push: PUSH,
}
export const SMS_SCHEDULE = {
  mobile: '13800138000',
  temp_id: 2,
  temp_para: { order: 'A1', days: '3' },
  send_time: '2026-01-02 10:00:00',
}
export const ADMIN_APP = { app_name: 'decoder', android_package: 'com.example.decoder' }

/** A failure an endpoint answers: its request, and the status and vendor code it must carry. */
export interface Failure {
  name: string
  /** Arms what the failure needs (a fault) before the request. */
  arm?: (ctx: Ctx) => Promise<void>
  request: (ctx: Ctx) => Request
  status: number
  code: number
}

export interface Endpoint {
  /** `METHOD /path` as the vendor documents it. */
  id: string
  success: (ctx: Ctx) => Request
  /** The documented success body: fields and JSON types. */
  shape: Shape
  failures: Failure[]
  /** Sandbox state the endpoint needs beyond `prepare` (a group to push through). */
  setup?: (app: SandboxApp) => Promise<void>
}

type Host = 'push' | 'device' | 'report' | 'schedule'
const AUTH_CODE: Record<Host, number> = { push: 1004, device: 7004, report: 3001, schedule: 8101 }

/** The failures every /v3 endpoint answers: a wrong secret (its host's code), and 429 2002. */
function v3Failures(host: Host, success: (ctx: Ctx) => Request, faultPath: (ctx: Ctx) => string): Failure[] {
  return [
    {
      name: `wrong secret (401 ${AUTH_CODE[host]})`,
      request: ctx => ({ ...success(ctx), auth: WRONG_SECRET }),
      status: 401,
      code: AUTH_CODE[host],
    },
    {
      name: 'rate limited (429 2002, fault)',
      arm: ctx => armFault(ctx.app, { method: success(ctx).method, path: faultPath(ctx), code: 2002 }),
      request: success,
      status: 429,
      code: 2002,
    },
  ]
}

function v3(
  id: string,
  host: Host,
  success: (ctx: Ctx) => Request,
  shape: Shape,
  natural: Failure[] = [],
): Endpoint {
  const faultPath = (ctx: Ctx) =>
    success(ctx)
      .url.split('?')[0]
      ?.replace(/\/{2,}/g, '/') ?? ''
  return { id, success, shape, failures: [...v3Failures(host, success, faultPath), ...natural] }
}

const get = (url: string): Request => ({ method: 'GET', url })
const post = (url: string, body: unknown): Request => ({ method: 'POST', url, body })
const nat = (name: string, request: (ctx: Ctx) => Request, status: number, code: number): Failure => ({
  name,
  request,
  status,
  code,
})

const GROUP = { key: 'decodergroup000000000001', secret: 'decodergroupsecret000001' }

/**
 * The JPush endpoints the official clients call, by the vendor's path. A client file maps its calls
 * onto these, with the URL as it forms it (double slashes, trailing slashes, query strings).
 */
export const jpush = {
  push: v3('POST /v3/push', 'push', () => post('/v3/push', PUSH), { sendno: 'string', msg_id: 'string' }, [
    nat(
      'no one in the audience (400 1011)',
      () => post('/v3/push', { ...PUSH, audience: { tag: ['nobody'] } }),
      400,
      1011,
    ),
  ]),
  validate: v3(
    'POST /v3/push/validate',
    'push',
    () => post('/v3/push/validate', PUSH),
    { sendno: 'string', msg_id: 'string' },
    [
      nat(
        'missing audience (400 1002)',
        () => post('/v3/push/validate', { platform: 'all', notification: { alert: 'x' } }),
        400,
        1002,
      ),
    ],
  ),
  cid: v3('GET /v3/push/cid', 'push', () => get('/v3/push/cid?count=2&type=push'), { cidlist: 'array' }, [
    nat('count 0 (400 1003)', () => get('/v3/push/cid?count=0'), 400, 1003),
  ]),
  batchRegid: v3(
    'POST /v3/push/batch/regid/single',
    'push',
    () =>
      post('/v3/push/batch/regid/single', {
        pushlist: { 'decoder-cid-1': { platform: 'all', target: ANDROID_1, notification: { alert: 'b' } } },
      }),
    { 'decoder-cid-1': 'object' },
    [
      nat(
        'empty pushlist (400 1003)',
        () => post('/v3/push/batch/regid/single', { pushlist: {} }),
        400,
        1003,
      ),
    ],
  ),
  batchAlias: v3(
    'POST /v3/push/batch/alias/single',
    'push',
    () =>
      post('/v3/push/batch/alias/single', {
        pushlist: { 'decoder-cid-2': { platform: 'all', target: 'alias1', notification: { alert: 'b' } } },
      }),
    { 'decoder-cid-2': 'object' },
    [
      nat(
        'empty pushlist (400 1003)',
        () => post('/v3/push/batch/alias/single', { pushlist: {} }),
        400,
        1003,
      ),
    ],
  ),
  groupPush: {
    id: 'POST /v3/grouppush',
    setup: app => joinGroup(app),
    success: () => ({ ...post('/v3/grouppush', PUSH), auth: basic(`group-${GROUP.key}`, GROUP.secret) }),
    shape: { group_msgid: 'string' },
    failures: [
      {
        name: 'wrong group secret (401 1004)',
        request: () => ({
          ...post('/v3/grouppush', PUSH),
          auth: basic(`group-${GROUP.key}`, 'ffffffffffffffffffffffff'),
        }),
        status: 401,
        code: 1004,
      },
    ],
  } satisfies Endpoint,
  deviceGet: v3(
    'GET /v3/devices/{registration_id}',
    'device',
    () => get(`/v3/devices/${ANDROID_1}`),
    { tags: 'array', alias: ['string', 'null'], mobile: ['string', 'null'] },
    [nat('unknown registration_id (400 7002)', () => get('/v3/devices/0000aaaa'), 400, 7002)],
  ),
  devicePost: v3(
    'POST /v3/devices/{registration_id}',
    'device',
    () => post(`/v3/devices/${ANDROID_1}`, { tags: { add: ['decoder'] } }),
    'empty-object',
    [
      nat(
        'unknown registration_id (400 7002)',
        () => post('/v3/devices/0000aaaa', { alias: 'x' }),
        400,
        7002,
      ),
    ],
  ),
  deviceStatus: v3(
    'POST /v3/devices/status',
    'device',
    () => post('/v3/devices/status', { registration_ids: [ANDROID_1] }),
    { [ANDROID_1]: 'object' },
    [nat('no registration_ids (400 7002)', () => post('/v3/devices/status', {}), 400, 7002)],
  ),
  tagList: v3('GET /v3/tags', 'device', () => get('/v3/tags/'), { tags: 'array' }),
  tagHas: v3(
    'GET /v3/tags/{tag}/registration_ids/{registration_id}',
    'device',
    () => get(`/v3/tags/tag1/registration_ids/${ANDROID_1}`),
    { result: 'boolean' },
  ),
  tagPost: v3(
    'POST /v3/tags/{tag}',
    'device',
    () => post('/v3/tags/tag1', { registration_ids: { add: [IOS_1] } }),
    'empty-object',
    [nat('nothing to add or remove (400 7002)', () => post('/v3/tags/tag1', {}), 400, 7002)],
  ),
  tagDelete: v3(
    'DELETE /v3/tags/{tag}',
    'device',
    () => ({ method: 'DELETE', url: '/v3/tags/decoder_tag' }),
    'empty-object',
  ),
  aliasGet: v3('GET /v3/aliases/{alias}', 'device', () => get('/v3/aliases/alias1'), {
    registration_ids: 'array',
  }),
  aliasDelete: v3(
    'DELETE /v3/aliases/{alias}',
    'device',
    () => ({ method: 'DELETE', url: '/v3/aliases/decoder_alias' }),
    'empty-object',
  ),
  received: v3(
    'GET /v3/received',
    'report',
    ctx => get(`/v3/received?msg_ids=${ctx.msgId}`),
    [{ msg_id: 'string', android_received: ['integer', 'null'], ios_apns_received: ['integer', 'null'] }],
    [nat('malformed msg_ids (400 3002)', () => get('/v3/received?msg_ids=,'), 400, 3002)],
  ),
  receivedDetail: v3(
    'GET /v3/received/detail',
    'report',
    ctx => get(`/v3/received/detail?msg_ids=${ctx.msgId}`),
    [{ msg_id: 'string' }],
    [nat('malformed msg_ids (400 3002)', () => get('/v3/received/detail?msg_ids=,'), 400, 3002)],
  ),
  statusMessage: v3(
    'POST /v3/status/message',
    'report',
    ctx => post('/v3/status/message', { msg_id: Number(ctx.msgId), registration_ids: [ANDROID_1] }),
    { [ANDROID_1]: 'object' },
    [
      nat(
        'no registration_ids (400 3002)',
        ctx => post('/v3/status/message', { msg_id: Number(ctx.msgId) }),
        400,
        3002,
      ),
    ],
  ),
  messages: v3(
    'GET /v3/messages',
    'report',
    ctx => get(`/v3/messages?msg_ids=${ctx.msgId}`),
    [{ msg_id: 'string', android: 'object', ios: 'object' }],
    [nat('malformed msg_ids (400 3002)', () => get('/v3/messages?msg_ids=,'), 400, 3002)],
  ),
  messagesDetail: v3(
    'GET /v3/messages/detail',
    'report',
    ctx => get(`/v3/messages/detail?msg_ids=${ctx.msgId}`),
    [{ msg_id: 'string', jpush: 'object' }],
    [nat('malformed msg_ids (400 3002)', () => get('/v3/messages/detail?msg_ids=,'), 400, 3002)],
  ),
  users: v3(
    'GET /v3/users',
    'report',
    () => get('/v3/users?time_unit=DAY&start=2026-01-01&duration=1'),
    { time_unit: 'string', start: 'string', duration: 'integer', items: 'array' },
    [
      nat(
        'MONTH with a day start (400 3004)',
        () => get('/v3/users?time_unit=MONTH&start=2026-01-01&duration=1'),
        400,
        3004,
      ),
    ],
  ),
  scheduleCreate: v3(
    'POST /v3/schedules',
    'schedule',
    () => post('/v3/schedules', { ...TASK, name: 'decoder_new' }),
    { schedule_id: 'string', name: 'string' },
    [
      nat(
        'no trigger (400 8100)',
        () => post('/v3/schedules', { name: 'x', enabled: true, push: PUSH }),
        400,
        8100,
      ),
    ],
  ),
  scheduleList: v3('GET /v3/schedules', 'schedule', () => get('/v3/schedules?page=1'), {
    total_count: 'integer',
    total_pages: 'integer',
    page: 'integer',
    schedules: 'array',
  }),
  scheduleGet: v3(
    'GET /v3/schedules/{schedule_id}',
    'schedule',
    ctx => get(`/v3/schedules/${ctx.scheduleId}`),
    { schedule_id: 'string', name: 'string', enabled: 'boolean', trigger: 'object', push: 'object' },
    [
      nat(
        'unknown schedule (404 8104)',
        () => get('/v3/schedules/00000000-0000-0000-0000-000000000000'),
        404,
        8104,
      ),
    ],
  ),
  schedulePut: v3(
    'PUT /v3/schedules/{schedule_id}',
    'schedule',
    ctx => ({ method: 'PUT', url: `/v3/schedules/${ctx.scheduleId}`, body: { name: 'decoder_renamed' } }),
    { schedule_id: 'string', name: 'string' },
    [
      nat(
        'unknown schedule (404 8104)',
        () => ({
          method: 'PUT',
          url: '/v3/schedules/00000000-0000-0000-0000-000000000000',
          body: { name: 'x' },
        }),
        404,
        8104,
      ),
    ],
  ),
  scheduleDelete: v3(
    'DELETE /v3/schedules/{schedule_id}',
    'schedule',
    ctx => ({ method: 'DELETE', url: `/v3/schedules/${ctx.scheduleId}` }),
    'empty-object',
    [
      nat(
        'unknown schedule (404 8104)',
        () => ({ method: 'DELETE', url: '/v3/schedules/00000000-0000-0000-0000-000000000000' }),
        404,
        8104,
      ),
    ],
  ),
  scheduleMsgIds: v3(
    'GET /v3/schedules/{schedule_id}/msg_ids',
    'schedule',
    ctx => get(`/v3/schedules/${ctx.scheduleId}/msg_ids`),
    { count: 'integer', msgids: 'array' },
    [
      nat(
        'unknown schedule (404 8104)',
        () => get('/v3/schedules/00000000-0000-0000-0000-000000000000/msg_ids'),
        404,
        8104,
      ),
    ],
  ),
} satisfies Record<string, Endpoint>

/** Joins the default app to the group that `jpush.groupPush` names. */
export async function joinGroup(app: SandboxApp): Promise<void> {
  const res = await send(app, {
    method: 'PUT',
    url: '/_sandbox/push/group',
    body: { group_key: GROUP.key, master_secret: GROUP.secret },
  })
  if (res.status !== 200) throw new Error(`group not joined: ${res.raw}`)
}

/** The Admin API (admin.jpush.cn), with the developer's credentials. */
export const admin = {
  create: {
    id: 'POST admin /v1/app',
    success: () => ({
      ...post('/v1/app', { ...ADMIN_APP, android_package: 'com.example.decoder2' }),
      auth: DEV_AUTH,
      host: ADMIN_HOST,
    }),
    shape: {
      app_key: 'string',
      android_package: 'string',
      is_new_created: 'boolean',
      master_secret: 'string',
    },
    failures: [
      nat(
        'wrong dev secret (401 4005)',
        () => ({ ...post('/v1/app', ADMIN_APP), auth: WRONG_DEV_SECRET, host: ADMIN_HOST }),
        401,
        4005,
      ),
      nat(
        'invalid android_package (400 4003)',
        () => ({
          ...post('/v1/app', { app_name: 'x', android_package: '!!' }),
          auth: DEV_AUTH,
          host: ADMIN_HOST,
        }),
        400,
        4003,
      ),
      {
        name: 'system error (500 10, fault)',
        arm: ctx => armFault(ctx.app, { path: '/admin/v1/app', code: 10 }),
        request: () => ({ ...post('/v1/app', ADMIN_APP), auth: DEV_AUTH, host: ADMIN_HOST }),
        status: 500,
        code: 10,
      },
    ],
  },
  delete: {
    id: 'POST admin /v1/app/{appKey}/delete',
    success: ctx => ({
      method: 'POST',
      url: `/v1/app/${ctx.newAppKey}/delete`,
      auth: DEV_AUTH,
      host: ADMIN_HOST,
    }),
    shape: { success: 'string' },
    failures: [
      nat(
        'wrong dev secret (401 4005)',
        ctx => ({
          method: 'POST',
          url: `/v1/app/${ctx.newAppKey}/delete`,
          auth: WRONG_DEV_SECRET,
          host: ADMIN_HOST,
        }),
        401,
        4005,
      ),
      // The vendor's table answers 1010–1015 with HTTP 200 (docs/fidelity.md, Admin API).
      nat(
        'unknown appkey (200 1013)',
        () => ({
          method: 'POST',
          url: '/v1/app/ffffffffffffffffffffffff/delete',
          auth: DEV_AUTH,
          host: ADMIN_HOST,
        }),
        200,
        1013,
      ),
    ],
  },
} satisfies Record<string, Endpoint>

export const RATE_HEADERS = ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset'] as const

/** The three X-Rate-Limit headers, as integers, on a /v3 answer. */
export function expectRateHeaders(answer: Answer, remaining?: number) {
  for (const h of RATE_HEADERS) expect(answer.headers[h], h).toMatch(/^\d+$/)
  if (remaining !== undefined) expect(answer.headers['x-rate-limit-remaining']).toBe(String(remaining))
}

// ---- JSMS (/v1) ----

/** A multipart form of text parts, as requests' `files=` and curl's `-F` send the sign routes. */
export function form(fields: Record<string, string>): Request['raw'] {
  const b = 'decoderboundary'
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return {
    payload: Buffer.from(`${parts.join('')}--${b}--\r\n`),
    contentType: `multipart/form-data; boundary=${b}`,
  }
}

/** JSMS answers its failures 401 50002 (credentials) and, armed, 403 50009 ("out of freq"). */
function v1(
  id: string,
  success: (ctx: Ctx) => Request,
  shape: Shape,
  natural: Failure[] = [],
  auth: { wrong: string; fault: boolean } = { wrong: WRONG_SECRET, fault: true },
): Endpoint {
  const path = (ctx: Ctx) => success(ctx).url.split('?')[0] ?? ''
  return {
    id,
    success,
    shape,
    failures: [
      {
        name: 'wrong secret (401 50002)',
        request: ctx => ({ ...success(ctx), auth: auth.wrong }),
        status: 401,
        code: 50002,
      },
      ...(auth.fault
        ? [
            {
              name: 'too frequent (403 50009, fault)',
              arm: (ctx: Ctx) =>
                armFault(ctx.app, { method: success(ctx).method, path: path(ctx), code: 50009 }),
              request: success,
              status: 403,
              code: 50009,
            },
          ]
        : []),
      ...natural,
    ],
  }
}

const TEMPLATE = { template: '您的订单{{order}}已出库。', type: 2, ttl: 0, remark: 'decoder' }
const RECIPIENT = { mobile: '13800138001', temp_para: { order: 'A1', days: '3' } }

export const jsms = {
  codes: v1(
    'POST /v1/codes',
    () => post('/v1/codes', { mobile: '13800138002', temp_id: 1 }),
    { msg_id: 'string' },
    [nat('missing mobile (400 50004)', () => post('/v1/codes', { temp_id: 1 }), 400, 50004)],
  ),
  voiceCodes: v1(
    'POST /v1/voice_codes',
    () => post('/v1/voice_codes', { mobile: '13800138003' }),
    { msg_id: 'string' },
    [nat('missing mobile (400 50004)', () => post('/v1/voice_codes', {}), 400, 50004)],
  ),
  valid: v1(
    'POST /v1/codes/{msg_id}/valid',
    ctx => post(`/v1/codes/${ctx.codeMsgId}/valid`, { code: ctx.code }),
    { is_valid: 'boolean' },
    [nat('unknown msg_id (403 50026)', () => post('/v1/codes/1/valid', { code: '123456' }), 403, 50026)],
  ),
  messages: v1(
    'POST /v1/messages',
    () => post('/v1/messages', { ...RECIPIENT, temp_id: 2 }),
    { msg_id: 'string' },
    [
      nat(
        'unknown temp_id (403 50013)',
        () => post('/v1/messages', { ...RECIPIENT, temp_id: 999 }),
        403,
        50013,
      ),
    ],
  ),
  messagesBatch: v1(
    'POST /v1/messages/batch',
    () => post('/v1/messages/batch', { temp_id: 2, recipients: [RECIPIENT] }),
    { success_count: 'integer', failure_count: 'integer', recipients: 'array' },
    [
      nat(
        'unknown temp_id (403 50013)',
        () => post('/v1/messages/batch', { temp_id: 999, recipients: [RECIPIENT] }),
        403,
        50013,
      ),
    ],
  ),
  schedule: v1('POST /v1/schedule', () => post('/v1/schedule', SMS_SCHEDULE), { schedule_id: 'string' }, [
    nat(
      'unknown temp_id (403 50013)',
      () => post('/v1/schedule', { ...SMS_SCHEDULE, temp_id: 999 }),
      403,
      50013,
    ),
  ]),
  scheduleBatch: v1(
    'POST /v1/schedule/batch',
    () =>
      post('/v1/schedule/batch', { temp_id: 2, send_time: SMS_SCHEDULE.send_time, recipients: [RECIPIENT] }),
    { schedule_id: 'string', success_count: 'integer', failure_count: 'integer' },
  ),
  schedulePut: v1(
    'PUT /v1/schedule/{schedule_id}',
    ctx => ({ method: 'PUT', url: `/v1/schedule/${ctx.smsScheduleId}`, body: SMS_SCHEDULE }),
    { schedule_id: 'string' },
    [
      nat(
        'unknown schedule_id (403 50028)',
        () => ({ method: 'PUT', url: '/v1/schedule/nope', body: SMS_SCHEDULE }),
        403,
        50028,
      ),
    ],
  ),
  scheduleBatchPut: v1(
    'PUT /v1/schedule/batch/{schedule_id}',
    ctx => ({
      method: 'PUT',
      url: `/v1/schedule/batch/${ctx.smsBatchScheduleId}`,
      body: { temp_id: 2, send_time: SMS_SCHEDULE.send_time, recipients: [RECIPIENT] },
    }),
    { schedule_id: 'string', success_count: 'integer', failure_count: 'integer' },
  ),
  scheduleGet: v1(
    'GET /v1/schedule/{schedule_id}',
    ctx => get(`/v1/schedule/${ctx.smsScheduleId}`),
    { schedule_id: 'string', send_time: 'string', temp_id: 'integer', recipients: 'array' },
    [nat('unknown schedule_id (403 50028)', () => get('/v1/schedule/nope'), 403, 50028)],
  ),
  scheduleDelete: v1(
    'DELETE /v1/schedule/{schedule_id}',
    ctx => ({ method: 'DELETE', url: `/v1/schedule/${ctx.smsScheduleId}` }),
    'empty',
    [
      nat(
        'unknown schedule_id (403 50028)',
        () => ({ method: 'DELETE', url: '/v1/schedule/nope' }),
        403,
        50028,
      ),
    ],
  ),
  accountsApp: v1('GET /v1/accounts/app', () => get('/v1/accounts/app'), {
    app_balance: 'integer',
    app_voice: 'integer',
    app_industry: 'integer',
    app_market: 'integer',
  }),
  accountsDev: v1(
    'GET /v1/accounts/dev',
    () => ({ ...get('/v1/accounts/dev'), auth: DEV_AUTH }),
    { dev_balance: 'integer', dev_voice: 'integer', dev_industry: 'integer', dev_market: 'integer' },
    [],
    // A fault is an app's (control-plane.md): a developer's call is not answered by one.
    { wrong: WRONG_DEV_SECRET, fault: false },
  ),
  templateCreate: v1('POST /v1/templates', () => post('/v1/templates', TEMPLATE), { temp_id: 'integer' }, [
    nat('missing template (403 50042)', () => post('/v1/templates', { type: 2 }), 403, 50042),
  ]),
  templatePut: v1(
    'PUT /v1/templates/{temp_id}',
    () => ({ method: 'PUT', url: '/v1/templates/5', body: { ...TEMPLATE, remark: 'changed' } }),
    { temp_id: 'integer' },
    [
      nat(
        'unknown temp_id (403 50013)',
        () => ({ method: 'PUT', url: '/v1/templates/999', body: TEMPLATE }),
        403,
        50013,
      ),
    ],
  ),
  templateGet: v1(
    'GET /v1/templates/{temp_id}',
    () => get('/v1/templates/1'),
    { temp_id: 'integer', template: 'string', type: 'integer', ttl: 'integer', status: 'integer' },
    [nat('unknown temp_id (403 50013)', () => get('/v1/templates/999'), 403, 50013)],
  ),
  templateDelete: v1(
    'DELETE /v1/templates/{temp_id}',
    ctx => ({ method: 'DELETE', url: `/v1/templates/${ctx.tempId}` }),
    'empty',
    [nat('unknown temp_id (403 50013)', () => ({ method: 'DELETE', url: '/v1/templates/999' }), 403, 50013)],
  ),
  signCreate: v1(
    'POST /v1/sign',
    () => ({ method: 'POST', url: '/v1/sign', raw: form({ sign: '解码测试', type: '1' }) }),
    { sign_id: 'integer' },
    [
      nat(
        'a one-character sign (403 50104)',
        () => ({ method: 'POST', url: '/v1/sign', raw: form({ sign: 'A' }) }),
        403,
        50104,
      ),
    ],
  ),
  signUpdate: v1(
    'POST /v1/sign/{sign_id}',
    ctx => ({ method: 'POST', url: `/v1/sign/${ctx.signId}`, raw: form({ sign: '解码测试二' }) }),
    { sign_id: 'integer' },
    [
      nat(
        'unknown sign_id (403 50102)',
        () => ({ method: 'POST', url: '/v1/sign/999', raw: form({ sign: '解码测试三' }) }),
        403,
        50102,
      ),
    ],
  ),
  signGet: v1(
    'GET /v1/sign/{sign_id}',
    () => get('/v1/sign/1'),
    { sign_id: 'integer', sign: 'string', status: 'integer', is_default: 'integer' },
    [nat('unknown sign_id (403 50102)', () => get('/v1/sign/999'), 403, 50102)],
  ),
  signDelete: v1(
    'DELETE /v1/sign/{sign_id}',
    ctx => ({ method: 'DELETE', url: `/v1/sign/${ctx.signId}` }),
    'empty',
    [nat('unknown sign_id (403 50102)', () => ({ method: 'DELETE', url: '/v1/sign/999' }), 403, 50102)],
  ),
} satisfies Record<string, Endpoint>

// ---- The runner: one test per call a client makes ----

/** One call of a client: the endpoint, where the client makes it, and its decoder. */
export interface Call {
  endpoint: Endpoint
  /** file:line of the call in the client (at the commit in the test file's header). */
  cite: string
  decode: Decoder
  /** The URL as the client forms it (double or trailing slashes), from the vendor's path. */
  url?: (url: string) => string
  /** The body as the client encodes it (C#: JSON as text/plain). */
  encode?: (req: Request) => Request
}

/** JSON sent as `text/plain; charset=utf-8`, as C#'s `new StringContent(json, Encoding.UTF8)` does. */
export const asTextPlain = (req: Request): Request =>
  req.body === undefined
    ? req
    : {
        ...req,
        body: undefined,
        raw: { payload: JSON.stringify(req.body), contentType: 'text/plain; charset=utf-8' },
      }

export interface Checks {
  /** What the decoder must make of the endpoint's success answer. */
  success(outcome: Outcome, answer: Answer, endpoint: Endpoint): void
  /** What the decoder must make of one documented failure. */
  failure(outcome: Outcome, answer: Answer, failure: Failure): void
}

/**
 * Drives one call: every failure first (a fault, a wrong secret and the natural refusals leave the
 * state alone), then the success. Asserts the sandbox's answer (status, vendor code, documented
 * success shape), then hands the decoder's outcome to the client's checks.
 */
export async function drive(app: SandboxApp, call: Call, checks: Checks): Promise<void> {
  await call.endpoint.setup?.(app)
  const ctx = await prepare(app)
  const at = (req: Request): Request => {
    const shaped = call.url ? { ...req, url: call.url(req.url) } : req
    return call.encode ? call.encode(shaped) : shaped
  }
  for (const failure of call.endpoint.failures) {
    await failure.arm?.(ctx)
    const answer = await send(app, at(failure.request(ctx)))
    const body = parseJson(answer.raw)
    const sent = body.ok && isObject(body.value) ? body.value : {}
    const code = isObject(sent.error) ? sent.error.code : sent.code
    expect([answer.status, code], `${call.endpoint.id}, ${failure.name}: ${answer.raw}`).toEqual([
      failure.status,
      failure.code,
    ])
    // jpush-async reads Content-Type before it parses, and fails on its absence (Request2.js:36).
    expect(answer.headers['content-type'], failure.name).toMatch(/^application\/json/)
    checks.failure(call.decode(answer), answer, failure)
  }
  const answer = await send(app, at(call.endpoint.success(ctx)))
  // Exactly 200: PHP (Http.php:121) and the Node clients take nothing else for a success.
  expect(answer.status, `${call.endpoint.id}: ${answer.raw}`).toBe(200)
  expect(answer.headers['content-type'], call.endpoint.id).toMatch(/^application\/json/)
  expect(shapeErrors(answer.raw, call.endpoint.shape), call.endpoint.id).toEqual([])
  checks.success(call.decode(answer), answer, call.endpoint)
}

/** A fresh sandbox whose reviews are decided at once (a second signature is not refused 50103). */
export async function decoderApp(): Promise<SandboxApp> {
  return (await createTestApp({ reviewDelayMs: 0 })).app
}

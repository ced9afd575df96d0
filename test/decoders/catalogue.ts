import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { APP_KEY, basic } from '../helpers.js'
import { ANDROID_1, IOS_1 } from '../push/helpers.js'
import {
  type Answer,
  bodyProblems,
  type Call,
  type Client,
  type Ctx,
  type Endpoint,
  type Failure,
  get,
  isObject,
  type Outcome,
  parseJson,
  post,
  type Request,
  req,
  type Shape,
  send,
  unknownKeys,
} from './decoder.js'

// What the decoder tests drive the sandbox with, shared by every client's file: the request bodies
// (each client sends these, its own serialisation aside, which test/push and test/sms check), the
// sandbox state they name (`prepare`), the failures every host answers, the JPush, JSMS and Admin
// endpoints the official clients call, and the runner that checks a client's calls against them.
// For each endpoint: its success, a wrong secret (401), an armed fault (429 2002 on /v3, a
// documented JSMS/Admin failure) and, where one is cheap, a natural refusal (400 validation,
// 403/404 unknown id).

export const WRONG_SECRET = basic(APP_KEY, 'ffffffffffffffffffffffff')
export const DEV_AUTH = basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET)
export const WRONG_DEV_SECRET = basic(DEFAULT_DEV_KEY, 'ffffffffffffffffffffffff')
export const ADMIN_HOST = 'admin.jpush.cn'
/** A dev key the Admin API does not know: 401 4004. */
export const UNKNOWN_DEV_KEY = basic('nodevkey0000000000000000', 'ffffffffffffffffffffffff')

// ---- Request bodies ----

export const PUSH = {
  platform: 'all',
  audience: { registration_id: [ANDROID_1, IOS_1] },
  notification: { alert: 'decoder' },
}
/** A push the push host refuses: no audience (400 1002). */
export const NO_AUDIENCE = { platform: 'all', notification: { alert: 'x' } }
/** A registration_id no device has: 400 1003 with illegal_rids. */
export const UNKNOWN_RID = '1a0018970a8b0fd6c99'
/** The app's clock starts at 2026-01-01 00:00 UTC (ManualClock): a day later is in the future. */
export const SEND_TIME = '2026-01-02 10:00:00'
export const SCHEDULE = {
  name: 'decoder',
  enabled: true,
  trigger: { single: { time: SEND_TIME } },
  push: PUSH,
}
/** More than a year ahead: 400 8100. */
export const SCHEDULE_TOO_LATE = { ...SCHEDULE, trigger: { single: { time: '2028-01-02 10:00:00' } } }
export const ADD_TAG = { registration_ids: { add: [ANDROID_1] } }
export const ADD_UNKNOWN = { registration_ids: { add: ['zz'] } }
export const REMOVE_UNKNOWN = { registration_ids: { remove: ['zz'] } }
export const BATCH = (target: string, cid = 'c1') => ({
  pushlist: { [cid]: { platform: 'all', target, notification: { alert: 'x' } } },
})
/** What a batch push answers for BATCH's one cid: its msg_id, or its own error. */
export const BATCH_SHAPE: Shape = {
  c1: { 'msg_id?': 'string', 'error?': { code: 'int', message: 'string', 'illegal_rids?': 'strings' } },
}
export const TEMPLATE_ID = 'c65b34b96512'
export const TEMPLATE_PUSH = {
  id: TEMPLATE_ID,
  params: [{ audience: { registration_id: [ANDROID_1] }, keys: { content: 'hi' } }],
}
export const TEMPLATE_SCHEDULE = {
  ...TEMPLATE_PUSH,
  trigger: { single: { time: SEND_TIME } },
  name: 'decoder',
}
export const ADMIN_APP = { app_name: 'decoder', android_package: 'com.example.decoder' }

export const SMS_CODE = { mobile: '13800138000', temp_id: 1 }
export const RECIPIENT = { mobile: '13800138001', temp_para: { order: 'A1', days: '3' } }
export const SMS_MESSAGE = { ...RECIPIENT, temp_id: 2 }
export const SMS_BATCH = { temp_id: 2, recipients: [RECIPIENT, { ...RECIPIENT, mobile: '12' }] }
export const SMS_SCHEDULE = { ...SMS_MESSAGE, send_time: SEND_TIME }
export const SMS_SCHEDULE_BATCH = { temp_id: 2, send_time: SEND_TIME, recipients: [RECIPIENT] }
export const SMS_TEMPLATE = { template: '您的订单{{order}}已出库。', type: 2, ttl: 0, remark: 'decoder' }

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

// ---- The sandbox state the requests name ----

/** Pushes once, makes a JPush schedule, a JSMS schedule, a code and an Admin app: what the calls name. */
export async function prepare(app: SandboxApp): Promise<Ctx> {
  const ok = async (request: Request) => {
    const res = await send(app, request)
    if (res.status !== 200) throw new Error(`${request.method} ${request.url}: ${res.raw}`)
    return JSON.parse(res.raw) as Record<string, string>
  }
  const pushed = await ok({ method: 'POST', url: '/v3/push', body: PUSH })
  const task = await ok({ method: 'POST', url: '/v3/schedules', body: SCHEDULE })
  const sms = await ok({ method: 'POST', url: '/v1/schedule', body: SMS_SCHEDULE })
  const code = await ok({ method: 'POST', url: '/v1/codes', body: SMS_CODE })
  const made = await ok({ method: 'POST', url: '/v1/app', body: ADMIN_APP, auth: DEV_AUTH, host: ADMIN_HOST })
  const texted = await ok({ method: 'GET', url: '/_sandbox/sms/codes/latest?mobile=13800138000' })
  const batch = await ok({
    method: 'POST',
    url: '/v1/schedule/batch',
    body: SMS_SCHEDULE_BATCH,
  })
  const template = await ok({ method: 'POST', url: '/v1/templates', body: SMS_TEMPLATE })
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

/** The push template TEMPLATE_ID defined in the control plane (the vendor's console). */
export async function definedTemplate(app: SandboxApp): Promise<void> {
  const res = await send(app, {
    method: 'PUT',
    url: `/_sandbox/push/templates/${TEMPLATE_ID}`,
    body: { name: 'decoder', push: { platform: 'all', notification: { android: { alert: '{{content}}' } } } },
  })
  if (res.status !== 200) throw new Error(`push template: ${res.status} ${res.raw}`)
}

// ---- The failures every host answers ----

/** Arms one fault (docs/control-plane.md#fault-injection) for the default app; throws if refused. */
export async function armFault(
  app: SandboxApp,
  fault: { method?: string; path: string; code: number },
): Promise<void> {
  const res = await send(app, { method: 'POST', url: '/_sandbox/faults', body: { ...fault, times: 1 } })
  if (res.status !== 200) throw new Error(`fault refused: ${res.raw}`)
}

type Build = Failure['request']
const build = (r: Build | Request): Build => (typeof r === 'function' ? r : () => r)

/** A wrong master secret for `key` (the default app's unless named). */
export const badAuth = (key = APP_KEY) => ({ authorization: basic(key, 'ffffffffffffffffffffffff') })

/** Each host's code for failed Basic authentication (jpush-api.md: push 1004, device 7004, schedule 8101, report 3001). */
function authCode(url: string): number {
  if (url.startsWith('/v1')) return 50002
  if (/^\/v3\/(devices|tags|aliases|test\/model)/.test(url)) return 7004
  if (url.startsWith('/v3/schedules')) return 8101
  if (/^\/v3\/(received|messages|status|users|group\/)/.test(url)) return 3001
  return 1004
}

/** The request with a wrong secret (`auth`, else the app key's): the vendor's 401 with its host's code. */
export function unauthorized(request: Build | Request, auth = WRONG_SECRET, code?: number): Failure {
  const made = build(request)
  const host = code ?? (typeof request === 'function' ? undefined : authCode(request.url))
  if (host === undefined) throw new Error('unauthorized: a built request names its code')
  return {
    name: auth === WRONG_SECRET ? 'wrong master secret' : 'wrong secret',
    request: async ctx => ({ ...(await made(ctx)), auth }),
    status: 401,
    code: host,
  }
}

/** A fault armed on the request's path (control-plane.md#fault-injection), then the request. */
export function faulted(
  request: Build | Request,
  fault: { code: number; status: number; name: string; path?: string },
): Failure {
  const made = build(request)
  return {
    name: `${fault.name} (fault)`,
    arm: async ctx => {
      const r = await made(ctx)
      const path = fault.path ?? r.url.split('?')[0]?.replace(/\/{2,}/g, '/') ?? ''
      await armFault(ctx.app, { method: r.method, path, code: fault.code })
    },
    request: made,
    status: fault.status,
    code: fault.code,
  }
}

/** A 2002 "request frequency exceeded" armed on the path: 429 with X-Rate-Limit-Remaining 0. */
export const rateLimited = (request: Build | Request): Failure => ({
  ...faulted(request, { code: 2002, status: 429, name: 'rate limit exceeded' }),
  spent: true,
})

/** Two more of the push host's documented refusals every push client meets on POST /v3/push. */
export const PUSH_REFUSALS: Failure[] = [
  {
    name: 'app_key does not exist (not 24 characters)',
    request: () => ({ ...post('/v3/push', PUSH), auth: basic('short', 'x'.repeat(24)) }),
    status: 400,
    code: 1008,
  },
  {
    name: 'message too long',
    request: () => post('/v3/push', { ...PUSH, message: { msg_content: 'a'.repeat(5000) } }),
    status: 400,
    code: 1005,
  },
]

// ---- The endpoints every client shares ----

type Host = 'push' | 'device' | 'report' | 'schedule'
const AUTH_CODE: Record<Host, number> = { push: 1004, device: 7004, report: 3001, schedule: 8101 }

/** A /v3 endpoint: its success, a wrong secret (its host's code), 429 2002, and its natural refusals. */
function v3(
  id: string,
  host: Host,
  success: (ctx: Ctx) => Request,
  shape: Shape,
  natural: Failure[] = [],
): Endpoint {
  return {
    id,
    success: { request: success, shape },
    failures: [unauthorized(success, WRONG_SECRET, AUTH_CODE[host]), rateLimited(success), ...natural],
  }
}

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
    nat('no audience', () => post('/v3/push', NO_AUDIENCE), 400, 1002),
    nat(
      'unknown registration_id (illegal_rids)',
      () => post('/v3/push', { ...PUSH, audience: { registration_id: [UNKNOWN_RID] } }),
      400,
      1003,
    ),
    ...PUSH_REFUSALS,
    faulted(post('/v3/push', PUSH), { code: 1011, status: 400, name: 'no target' }),
    faulted(post('/v3/push', PUSH), { code: 2005, status: 403, name: 'volume beyond a reasonable range' }),
    // A 5xx with the vendor's body: Go reads `error` on every status, Java's ApiErrorDecoder too.
    faulted(post('/v3/push', PUSH), { code: 1030, status: 503, name: 'internal service timeout' }),
  ]),
  validate: v3(
    'POST /v3/push/validate',
    'push',
    () => post('/v3/push/validate', PUSH),
    { sendno: 'string', msg_id: 'string' },
    [nat('missing audience (400 1002)', () => post('/v3/push/validate', NO_AUDIENCE), 400, 1002)],
  ),
  cid: v3('GET /v3/push/cid', 'push', () => get('/v3/push/cid?count=2&type=push'), { cidlist: 'strings' }, [
    nat('count 0 (400 1003)', () => get('/v3/push/cid?count=0'), 400, 1003),
    // The Schedule API's cids come from the same route (jiguang-sdk-go jpush/schedule/v3_get_cid.go).
    {
      ...unauthorized(get('/v3/push/cid?type=schedule&count=2')),
      name: 'wrong master secret (type=schedule)',
    },
  ]),
  quota: v3('GET /v3/push/quota', 'push', () => get('/v3/push/quota'), {
    code: 'int',
    message: 'string',
    data: {
      xiaomi_quota: { system: { total: 'long', used: 'long' }, operation: { total: 'long', used: 'long' } },
      oppo_quota: { system: { total: 'long', used: 'long' }, operation: { total: 'long', used: 'long' } },
      vivo_quota: { system: { total: 'long', used: 'long' }, operation: { total: 'long', used: 'long' } },
    },
  }),
  withdraw: {
    id: 'DELETE /v3/push/{msg_id}',
    success: { request: ctx => req('DELETE', `/v3/push/${ctx.msgId}`), shape: {} },
    failures: [
      unauthorized(req('DELETE', '/v3/push/1')),
      nat('unknown msg_id', () => req('DELETE', '/v3/push/1'), 400, 1003),
    ],
  } satisfies Endpoint,
  batchRegid: v3(
    'POST /v3/push/batch/regid/single',
    'push',
    () => post('/v3/push/batch/regid/single', BATCH(ANDROID_1)),
    BATCH_SHAPE,
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
    () => post('/v3/push/batch/alias/single', BATCH('alias1')),
    BATCH_SHAPE,
    [
      nat(
        'empty pushlist (400 1003)',
        () => post('/v3/push/batch/alias/single', { pushlist: {} }),
        400,
        1003,
      ),
    ],
  ),
  template: {
    id: 'POST /v3/push/template',
    success: {
      request: async ({ app }) => {
        await definedTemplate(app)
        return post('/v3/push/template', TEMPLATE_PUSH)
      },
      shape: {
        code: 'int',
        message: 'string',
        data: {
          push_list: [{ code: 'int', message: 'string', 'message_id?': 'string', 'trace_id?': 'string' }],
        },
      },
    },
    failures: [
      { ...unauthorized(post('/v3/push/template', TEMPLATE_PUSH)), name: 'wrong master secret (flat)' },
      nat(
        'unknown template id (flat)',
        () => post('/v3/push/template', { ...TEMPLATE_PUSH, id: 'nope' }),
        400,
        1003,
      ),
    ],
  } satisfies Endpoint,
  templateSchedule: {
    id: 'POST /v3/push/template/schedule',
    failures: [
      {
        ...unauthorized(post('/v3/push/template/schedule', TEMPLATE_SCHEDULE)),
        name: 'wrong master secret (flat)',
      },
      nat(
        'empty params (flat)',
        () => post('/v3/push/template/schedule', { ...TEMPLATE_SCHEDULE, params: [] }),
        400,
        1003,
      ),
    ],
  } satisfies Endpoint,
  pushFile: {
    id: 'POST /v3/push/file',
    failures: [
      unauthorized(post('/v3/push/file', PUSH)),
      nat(
        'unknown file_id',
        () => post('/v3/push/file', { ...PUSH, audience: { file: { file_id: 'nope' } } }),
        400,
        1003,
      ),
    ],
  } satisfies Endpoint,
  plans: {
    id: 'POST /v3/push_plan/create|update; GET /v3/push_plan/list',
    success: {
      request: () => get('/v3/push_plan/list?page=1&page_size=10&info=&send_source=0'),
      shape: {
        code: 'long',
        message: 'string',
        data: { total: 'long', page: 'long', page_size: 'long', detail: 'array' },
      },
    },
    failures: [nat('no name', () => post('/v3/push_plan/create', {}), 400, 1002)],
  } satisfies Endpoint,
  groupPush: {
    id: 'POST /v3/grouppush',
    setup: app => joinGroup(app),
    success: {
      request: () => ({ ...post('/v3/grouppush', PUSH), auth: basic(`group-${GROUP.key}`, GROUP.secret) }),
      shape: { group_msgid: 'string' },
    },
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
      {
        ...unauthorized(post('/v3/grouppush', PUSH), basic(`group-${'g'.repeat(24)}`, 'x'.repeat(24)), 1004),
        name: 'unknown group key',
      },
    ],
  } satisfies Endpoint,
  groupPushFile: { id: 'POST /v3/grouppush/file', failures: [unauthorized(post('/v3/grouppush/file', {}))] },
  deviceGet: v3(
    'GET /v3/devices/{registration_id}',
    'device',
    () => get(`/v3/devices/${ANDROID_1}`),
    { tags: 'strings', alias: ['string', 'null'], mobile: ['string', 'null'] },
    [
      nat('unknown registration_id (400 7002)', () => get('/v3/devices/0000aaaa'), 400, 7002),
      nat('invalid registration_id', () => get('/v3/devices/nope'), 400, 7002),
      faulted(get(`/v3/devices/${ANDROID_1}`), { code: 7030, status: 503, name: 'system busy' }),
    ],
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
      nat('tags not an add/remove object', () => post(`/v3/devices/${ANDROID_1}`, { tags: 5 }), 400, 7002),
    ],
  ),
  deviceStatus: v3(
    'POST /v3/devices/status',
    'device',
    () => post('/v3/devices/status', { registration_ids: [ANDROID_1] }),
    { [ANDROID_1]: { online: 'boolean', 'last_online_time?': ['string', 'null'] } },
    [nat('no registration_ids (400 7002)', () => post('/v3/devices/status', {}), 400, 7002)],
  ),
  testDevices: {
    id: 'POST /v3/test/model/add|update; GET /v3/test/model/list; DELETE /v3/test/model/delete/{rid}',
    success: {
      request: () => get('/v3/test/model/list'),
      shape: { total: 'long', page: 'long', page_size: 'long', detail: 'array' },
    },
    failures: [
      unauthorized(get('/v3/test/model/list')),
      nat('no device_name', () => post('/v3/test/model/add', {}), 400, 7002),
    ],
  } satisfies Endpoint,
  tagList: v3('GET /v3/tags', 'device', () => get('/v3/tags/'), { tags: 'strings' }),
  tagHas: v3(
    'GET /v3/tags/{tag}/registration_ids/{registration_id}',
    'device',
    () => get(`/v3/tags/tag1/registration_ids/${ANDROID_1}`),
    { result: 'boolean' },
    [nat('invalid registration_id', () => get('/v3/tags/tag1/registration_ids/zz'), 400, 7002)],
  ),
  tagPost: v3(
    'POST /v3/tags/{tag}',
    'device',
    () => post('/v3/tags/tag1', { registration_ids: { add: [IOS_1] } }),
    'empty-object',
    [
      nat('nothing to add or remove (400 7002)', () => post('/v3/tags/tag1', {}), 400, 7002),
      nat('unknown registration_ids (illegal_rids)', () => post('/v3/tags/tag1', ADD_UNKNOWN), 400, 7013),
    ],
  ),
  tagDelete: v3(
    'DELETE /v3/tags/{tag}',
    'device',
    () => ({ method: 'DELETE', url: '/v3/tags/decoder_tag' }),
    'empty-object',
    [nat('invalid platform', () => req('DELETE', '/v3/tags/tag1?platform=zz'), 400, 7002)],
  ),
  aliasGet: v3('GET /v3/aliases/{alias}', 'device', () => get('/v3/aliases/alias1'), {
    registration_ids: 'array',
  }),
  aliasGetNew: v3(
    'GET /v3/aliases/{alias}?new_format=true',
    'device',
    () => get('/v3/aliases/alias1?platform=android&new_format=true'),
    { data: [{ registration_id: 'string', platform: 'string', last_online_date: 'string' }] },
    [nat('invalid platform', () => get('/v3/aliases/alias1?platform=zz&new_format=true'), 400, 7002)],
  ),
  aliasDelete: v3(
    'DELETE /v3/aliases/{alias}',
    'device',
    () => ({ method: 'DELETE', url: '/v3/aliases/decoder_alias' }),
    'empty-object',
  ),
  aliasRemove: {
    id: 'POST /v3/aliases/{alias}',
    failures: [
      unauthorized(post('/v3/aliases/alias1', REMOVE_UNKNOWN)),
      nat(
        'unknown registration_ids (illegal_rids)',
        () => post('/v3/aliases/alias1', REMOVE_UNKNOWN),
        400,
        7013,
      ),
    ],
  } satisfies Endpoint,
  received: v3(
    'GET /v3/received',
    'report',
    ctx => get(`/v3/received?msg_ids=${ctx.msgId}`),
    [{ msg_id: 'string', android_received: ['long', 'null'], ios_apns_received: ['long', 'null'] }],
    [nat('malformed msg_ids (400 3002)', () => get('/v3/received?msg_ids=,'), 400, 3002)],
  ),
  receivedDetail: v3(
    'GET /v3/received/detail',
    'report',
    ctx => get(`/v3/received/detail?msg_ids=${ctx.msgId}`),
    [
      {
        msg_id: 'string',
        jpush_received: 'long',
        ios_apns_sent: 'long',
        'android_pns_sent?': ['long', 'null'],
      },
    ],
    [
      nat('malformed msg_ids (400 3002)', () => get('/v3/received/detail?msg_ids=,'), 400, 3002),
      nat('msg_ids invalid', () => get('/v3/received/detail?msg_ids=abc'), 400, 3002),
    ],
  ),
  statusMessage: v3(
    'POST /v3/status/message',
    'report',
    ctx => post('/v3/status/message', { msg_id: Number(ctx.msgId), registration_ids: [ANDROID_1] }),
    { [ANDROID_1]: { status: 'int' } },
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
    [
      {
        msg_id: 'string',
        jpush: 'object',
        details: {
          notification: { target: 'long', sent: 'long', received: 'long', display: 'long', click: 'long' },
        },
      },
    ],
    [
      nat('malformed msg_ids (400 3002)', () => get('/v3/messages/detail?msg_ids=,'), 400, 3002),
      nat('msg_ids invalid', () => get('/v3/messages/detail?msg_ids=abc'), 400, 3002),
    ],
  ),
  users: v3(
    'GET /v3/users',
    'report',
    () => get('/v3/users?time_unit=DAY&start=2026-01-01&duration=1'),
    {
      time_unit: 'string',
      start: 'string',
      duration: 'int',
      items: [{ time: 'string', 'android?': { new: 'long', online: 'long', active: 'long' } }],
    },
    [
      nat(
        'MONTH with a day start (400 3004)',
        () => get('/v3/users?time_unit=MONTH&start=2026-01-01&duration=1'),
        400,
        3004,
      ),
      nat('time_unit invalid', () => get('/v3/users?time_unit=X&start=2026-01-01&duration=1'), 400, 3002),
    ],
  ),
  groupMessagesDetail: {
    id: 'GET /v3/group/messages/detail',
    failures: [unauthorized(get('/v3/group/messages/detail?group_msgids=x'))],
  },
  groupUsers: {
    id: 'GET /v3/group/users',
    failures: [unauthorized(get('/v3/group/users?time_unit=DAY&start=2026-01-01&duration=1'))],
  },
  scheduleCreate: v3(
    'POST /v3/schedules',
    'schedule',
    () => post('/v3/schedules', { ...SCHEDULE, name: 'decoder_new' }),
    { schedule_id: 'string', name: 'string' },
    [
      nat(
        'no trigger (400 8100)',
        () => post('/v3/schedules', { name: 'x', enabled: true, push: PUSH }),
        400,
        8100,
      ),
      nat('trigger more than a year ahead', () => post('/v3/schedules', SCHEDULE_TOO_LATE), 400, 8100),
      faulted(post('/v3/schedules', SCHEDULE), { code: 8203, status: 503, name: 'schedule timeout' }),
    ],
  ),
  scheduleList: v3(
    'GET /v3/schedules',
    'schedule',
    () => get('/v3/schedules?page=1'),
    {
      total_count: 'long',
      total_pages: 'long',
      page: 'long',
      schedules: [{ schedule_id: 'string', name: 'string', 'enabled?': 'boolean' }],
    },
    [nat('page 0', () => get('/v3/schedules?page=0'), 400, 8100)],
  ),
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
    { count: 'long', msgids: 'array' },
    [
      nat(
        'unknown schedule (404 8104)',
        () => get('/v3/schedules/00000000-0000-0000-0000-000000000000/msg_ids'),
        404,
        8104,
      ),
    ],
  ),
  filesUpload: {
    id: 'POST /v3/files/{alias|registration_id}',
    failures: [
      unauthorized(post('/v3/files/alias', {})),
      unauthorized(post('/v3/files/registration_id', {})),
    ],
  },
  filesList: v3('GET /v3/files', 'push', () => get('/v3/files'), { total_count: 'int', files: 'array' }),
  file: {
    id: 'GET|DELETE /v3/files/{file_id}',
    failures: [
      unauthorized(req('DELETE', '/v3/files/nope')),
      nat('unknown file_id', () => get('/v3/files/nope'), 400, 1003),
    ],
  },
  imagesByUrls: {
    id: 'POST|PUT /v3/images/byurls',
    failures: [
      unauthorized(post('/v3/images/byurls', {})),
      nat(
        'no image_type',
        () => post('/v3/images/byurls', { image_url: 'https://img.example/a.png' }),
        400,
        1002,
      ),
      nat(
        'unknown media_id',
        () => req('PUT', '/v3/images/byurls/nope', { image_url: 'https://img.example/a.png' }),
        400,
        1003,
      ),
    ],
  },
  imagesByFiles: {
    id: 'POST|PUT /v3/images/byfiles',
    failures: [
      unauthorized(post('/v3/images/byfiles', {})),
      unauthorized(req('PUT', '/v3/images/byfiles/nope', {})),
    ],
  },
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
    success: {
      request: () => ({
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
    },
    failures: [
      nat(
        'wrong dev secret (401 4005)',
        () => ({ ...post('/v1/app', ADMIN_APP), auth: WRONG_DEV_SECRET, host: ADMIN_HOST }),
        401,
        4005,
      ),
      nat(
        'unknown dev key (401 4004)',
        () => ({ ...post('/v1/app', ADMIN_APP), auth: UNKNOWN_DEV_KEY, host: ADMIN_HOST }),
        401,
        4004,
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
      faulted(
        { ...post('/v1/app', ADMIN_APP), auth: DEV_AUTH, host: ADMIN_HOST },
        { code: 10, status: 500, name: 'system error', path: '/admin/v1/app' },
      ),
    ],
  },
  delete: {
    id: 'POST admin /v1/app/{appKey}/delete',
    success: {
      request: ctx => ({
        method: 'POST',
        url: `/v1/app/${ctx.newAppKey}/delete`,
        auth: DEV_AUTH,
        host: ADMIN_HOST,
      }),
      shape: { success: 'string' },
    },
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
      nat(
        'unknown dev key (401 4004)',
        () => ({ ...post('/v1/app/nope/delete', {}), auth: UNKNOWN_DEV_KEY, host: ADMIN_HOST }),
        401,
        4004,
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
  certificate: {
    id: 'POST admin /v1/app/{appKey}/certificate',
    failures: [
      nat(
        'unknown appkey (200 1013)',
        () => ({ ...post('/v1/app/nope/certificate', {}), auth: DEV_AUTH, host: ADMIN_HOST }),
        200,
        1013,
      ),
    ],
  },
} satisfies Record<string, Endpoint>

// ---- JSMS (/v1) ----

/** JSMS answers its failures 401 50002 (credentials) and, armed, 403 50009 ("out of freq"). */
function v1(
  id: string,
  success: (ctx: Ctx) => Request,
  shape: Shape,
  natural: Failure[] = [],
  auth: { wrong: string; fault: boolean } = { wrong: WRONG_SECRET, fault: true },
): Endpoint {
  return {
    id,
    success: { request: success, shape },
    failures: [
      unauthorized(success, auth.wrong, 50002),
      ...(auth.fault ? [faulted(success, { code: 50009, status: 403, name: 'too frequent' })] : []),
      ...natural,
    ],
  }
}

export const jsms = {
  codes: v1(
    'POST /v1/codes',
    () => post('/v1/codes', { mobile: '13800138002', temp_id: 1 }),
    { msg_id: 'string' },
    [
      nat('missing mobile (400 50004)', () => post('/v1/codes', { temp_id: 1 }), 400, 50004),
      nat('invalid mobile', () => post('/v1/codes', { ...SMS_CODE, mobile: '123' }), 403, 50006),
      faulted(post('/v1/codes', SMS_CODE), { code: 50019, status: 500, name: 'server error' }),
    ],
  ),
  voiceCodes: v1(
    'POST /v1/voice_codes',
    () => post('/v1/voice_codes', { mobile: '13800138003' }),
    { msg_id: 'string' },
    [
      nat('missing mobile (400 50004)', () => post('/v1/voice_codes', {}), 400, 50004),
      nat('invalid mobile', () => post('/v1/voice_codes', { mobile: '1' }), 403, 50006),
    ],
  ),
  valid: v1(
    'POST /v1/codes/{msg_id}/valid',
    ctx => post(`/v1/codes/${ctx.codeMsgId}/valid`, { code: ctx.code }),
    { is_valid: 'boolean' },
    [nat('unknown msg_id (403 50026)', () => post('/v1/codes/1/valid', { code: '123456' }), 403, 50026)],
  ),
  messages: v1('POST /v1/messages', () => post('/v1/messages', SMS_MESSAGE), { msg_id: 'string' }, [
    nat(
      'unknown temp_id (403 50013)',
      () => post('/v1/messages', { ...RECIPIENT, temp_id: 999 }),
      403,
      50013,
    ),
  ]),
  messagesBatch: v1(
    'POST /v1/messages/batch',
    // One recipient refused (mobile '12'): its entry carries error_code and error_message.
    () => post('/v1/messages/batch', SMS_BATCH),
    {
      success_count: 'long',
      failure_count: 'long',
      recipients: [
        { 'error_code?': 'string', 'error_message?': 'string', 'msg_id?': 'string', mobile: 'string' },
      ],
    },
    [
      nat('recipients empty', () => post('/v1/messages/batch', { temp_id: 2, recipients: [] }), 403, 50030),
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
  scheduleBatch: v1('POST /v1/schedule/batch', () => post('/v1/schedule/batch', SMS_SCHEDULE_BATCH), {
    schedule_id: 'string',
    success_count: 'long',
    failure_count: 'long',
  }),
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
      body: SMS_SCHEDULE_BATCH,
    }),
    { schedule_id: 'string', success_count: 'long', failure_count: 'long' },
    [
      nat(
        'unknown schedule_id (403 50028)',
        () => req('PUT', '/v1/schedule/batch/zzz', SMS_SCHEDULE_BATCH),
        403,
        50028,
      ),
    ],
  ),
  scheduleGet: v1(
    'GET /v1/schedule/{schedule_id}',
    ctx => get(`/v1/schedule/${ctx.smsScheduleId}`),
    {
      schedule_id: 'string',
      send_time: 'string',
      temp_id: 'long',
      recipients: [{ 'msg_id?': 'string', mobile: 'string', 'temp_para?': 'object' }],
    },
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
    app_balance: 'long',
    app_voice: 'long',
    app_industry: 'long',
    app_market: 'long',
  }),
  accountsDev: v1(
    'GET /v1/accounts/dev',
    () => ({ ...get('/v1/accounts/dev'), auth: DEV_AUTH }),
    { dev_balance: 'long', dev_voice: 'long', dev_industry: 'long', dev_market: 'long' },
    [nat('app credentials on the developer endpoint', () => get('/v1/accounts/dev'), 401, 50002)],
    // A fault is an app's (control-plane.md): a developer's call is not answered by one.
    { wrong: WRONG_DEV_SECRET, fault: false },
  ),
  templateCreate: v1('POST /v1/templates', () => post('/v1/templates', SMS_TEMPLATE), { temp_id: 'long' }, [
    nat('missing template (403 50042)', () => post('/v1/templates', { type: 2 }), 403, 50042),
  ]),
  templatePut: v1(
    'PUT /v1/templates/{temp_id}',
    () => ({ method: 'PUT', url: '/v1/templates/5', body: { ...SMS_TEMPLATE, remark: 'changed' } }),
    { temp_id: 'long' },
    [
      nat(
        'unknown temp_id (403 50013)',
        () => ({ method: 'PUT', url: '/v1/templates/999', body: SMS_TEMPLATE }),
        403,
        50013,
      ),
      nat(
        'an approved template cannot be modified',
        () => req('PUT', '/v1/templates/1', SMS_TEMPLATE),
        403,
        50047,
      ),
    ],
  ),
  templateGet: v1(
    'GET /v1/templates/{temp_id}',
    ctx => get(`/v1/templates/${ctx.tempId}`),
    { temp_id: 'long', template: 'string', type: 'long', ttl: 'long', remark: 'string', status: 'long' },
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
    { sign_id: 'long' },
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
    { sign_id: 'long' },
    [
      nat(
        'unknown sign_id (403 50102)',
        () => ({ method: 'POST', url: '/v1/sign/999', raw: form({ sign: '解码测试三' }) }),
        403,
        50102,
      ),
      nat('not multipart (media not supported)', () => post('/v1/sign/1', {}), 415, 50017),
    ],
  ),
  signGet: v1(
    'GET /v1/sign/{sign_id}',
    () => get('/v1/sign/1'),
    { sign_id: 'long', sign: 'string', status: 'long', is_default: 'long', 'use_status?': 'long' },
    [nat('unknown sign_id (403 50102)', () => get('/v1/sign/999'), 403, 50102)],
  ),
  signDelete: v1(
    'DELETE /v1/sign/{sign_id}',
    ctx => ({ method: 'DELETE', url: `/v1/sign/${ctx.signId}` }),
    'empty',
    [nat('unknown sign_id (403 50102)', () => ({ method: 'DELETE', url: '/v1/sign/999' }), 403, 50102)],
  ),
  report: {
    id: 'GET /v1/report',
    success: { request: () => get('/v1/report'), shape: [{}] },
    failures: [unauthorized(get('/v1/report'))],
  },
  reply: { id: 'GET /v1/reply', failures: [unauthorized(get('/v1/reply'))] },
} satisfies Record<string, Endpoint>

// ---- The runner: one describe per call a client makes, one test per answer ----

/**
 * Checks a client's calls on one sandbox (reviews decided at once, so a second signature is not
 * refused 50103), reset before each call (POST /_sandbox/reset: the app's items, faults and seed
 * made again) with the state `prepare` makes; each failure first (a fault, a wrong secret and the
 * natural refusals leave the state alone), then the success. Asserts the sandbox's answer (status,
 * vendor code, a JSON content type, the success shape as the client's runtime binds it), then hands
 * the decoder's outcome to the client's checks.
 */
export function checkCalls(client: Client, calls: Call[]): void {
  let app: SandboxApp
  beforeAll(async () => {
    app = await buildApp(testConfig({ reviewDelayMs: 0 }), { clock: new ManualClock() })
  })
  afterAll(() => app.close())
  for (const call of calls) {
    describe(`${call.id} — ${call.cite}`, () => {
      let ctx: Ctx
      beforeAll(async () => {
        const reset = await send(app, { method: 'POST', url: '/_sandbox/reset' })
        if (reset.status !== 200) throw new Error(`reset: ${reset.status} ${reset.raw}`)
        await call.setup?.(app)
        ctx = await prepare(app)
      })
      const decode = (answer: Answer): Outcome => {
        const read = call.decode ?? client.decode
        if (!read) throw new Error(`${call.id}: neither the call nor the client has a decoder`)
        return read(answer)
      }
      const at = async (build: Failure['request']): Promise<Request> => {
        const made = await build(ctx)
        const shaped = call.url ? { ...made, url: call.url(made.url) } : made
        return call.encode ? call.encode(shaped) : shaped
      }
      for (const failure of call.failures) {
        it(`${failure.status} ${failure.code}: ${failure.name}`, async () => {
          await failure.arm?.(ctx)
          const answer = await send(app, await at(failure.request))
          const body = parseJson(answer.raw)
          const sent = body.ok && isObject(body.value) ? body.value : {}
          const code = isObject(sent.error) ? sent.error.code : sent.code
          expect([answer.status, code], answer.raw).toEqual([failure.status, failure.code])
          // jpush-async reads Content-Type before it parses, and fails on its absence (Request2.js:36).
          expect(answer.headers['content-type']).toMatch(/^application\/json/)
          client.failure(decode(answer), answer, failure, call)
        })
      }
      const success = call.success
      if (success) {
        it('success decodes', async () => {
          const answer = await send(app, await at(success.request))
          // Exactly 200: PHP (Http.php:121) and the Node clients take nothing else for a success.
          expect(answer.status, answer.raw).toBe(success.status ?? 200)
          expect(answer.headers['content-type']).toMatch(/^application\/json/)
          expect(bodyProblems(client.runtime, answer.raw, success.shape), answer.raw).toEqual([])
          if (success.strict) expect(unknownKeys(answer.body, success.strict), answer.raw).toEqual([])
          client.success?.(decode(answer), answer, call)
        })
      }
    })
  }
}

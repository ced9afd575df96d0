import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { basic } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import {
  ADD_TAG,
  ADD_UNKNOWN,
  BATCH,
  badAuth,
  checkCalls,
  definedTemplate,
  faulted,
  NO_AUDIENCE,
  PUSH,
  PUSH_REFUSALS,
  REMOVE_UNKNOWN,
  rateLimited,
  SCHEDULE,
  SCHEDULE_TOO_LATE,
  SMS_BATCH,
  SMS_CODE,
  SMS_MESSAGE,
  SMS_SCHEDULE,
  SMS_SCHEDULE_BATCH,
  SMS_TEMPLATE,
  TEMPLATE_PUSH,
  TEMPLATE_SCHEDULE,
  UNKNOWN_RID,
  unauthorized,
} from './catalogue.js'
import {
  type Answer,
  type Call,
  type Failure,
  flatError,
  nestedError,
  problems,
  type Read,
  rateHeaders,
  readError,
  req,
  throwing,
} from './decoder.js'

// cavlabs/jiguang-sdk-go at 7e0ebcfea509bad92981094e094520e3bf57e37b. Paths below are under api/.
//
// Its decoder: client.go:119-150 keeps status, headers and raw body of every answer, whatever its
// status; each call then json.Unmarshal's the body into its result struct (e.g.
// jpush/push/v3_send.go:61-66), whose `Error *api.CodeError` is `error` (errors.go:77-80:
// {"code":int,"message":string}). So a failure is read from the nested envelope on every status,
// 5xx included, and Go's encoding/json binds strictly: a string where an int is declared (or the
// reverse) fails the whole call. Calls answered with no content skip the unmarshal
// (response.go:32-34, e.g. jpush/device/v3_set_device.go:58). The device calls that can name
// unknown devices read `error.illegal_rids` as []string (jpush/device/v3_set_tag.go:94-98,
// v3_delete_aliases.go:94). Template sends and push plans read a flat {code,message} too
// (jpush/push/v3_template_send.go:96-121: `error` if present, else strconv.Atoi of `code`, a JSON
// number; jpush/push/v3_create_plan.go:67-70 embeds CodeError). rate.go:40-52 reads
// X-Rate-Limit-Limit, -Remaining and -Reset with strconv.Atoi/ParseInt on every answer.

/** The nested envelope, Go-strict, with illegal_rids as []string when present. */
function goError(a: Answer): Read {
  const found = problems('go', a.body, {
    error: { code: 'long', message: 'string', 'illegal_rids?': 'strings' },
  })
  if (found.length > 0) throw new Error(`Go cannot read the error: ${found.join('; ')}`)
  return nestedError('go', a.body)
}

/** v3_template_send.go:96-121: `error` when present, else a flat code (a JSON number) and message. */
const templateError = (a: Answer): Read =>
  a.body && typeof a.body === 'object' && 'error' in a.body ? goError(a) : flatError('go', a.body)

const client = throwing({ runtime: 'go', error: goError, rate: a => rateHeaders(a.headers) })

const busy = (method: 'GET' | 'POST', url: string, body: unknown, code: number): Failure =>
  faulted(req(method, url, body), { code, status: 503, name: 'service busy (the body is read on a 5xx too)' })

const devAuth = { authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET) }

const ADMIN_DEV = devAuth
const NEW_APP = { app_name: 'decoder', android_package: 'com.decoder.app', group_name: 'decoders' }
/** The Admin API (admin.jpush.cn/v1, at /admin/v1 on any host) with an unknown dev key: 401 4004. */
const adminUnauthorized = (method: 'POST' | 'DELETE', url: string, body?: unknown): Failure => ({
  name: 'unknown dev key',
  request: () => req(method, url, body, badAuth('nodevkey0000000000000000')),
  status: 401,
  code: 4004,
})

const SEND = { msg_id: 'string', sendno: 'string' } as const
const SCHEDULE_FIELDS = { schedule_id: 'string', name: 'string', 'enabled?': 'boolean' } as const

const endpoints: Call[] = [
  {
    id: 'POST /v3/push',
    cite: 'jpush/push/v3_send.go:40-67 → SendResult :121-126',
    success: { request: () => req('POST', '/v3/push', PUSH), shape: SEND },
    failures: [
      unauthorized(req('POST', '/v3/push', PUSH)),
      {
        name: 'no audience',
        request: () => req('POST', '/v3/push', NO_AUDIENCE),
        status: 400,
        code: 1002,
      },
      {
        name: 'unknown registration_id (illegal_rids)',
        request: () => req('POST', '/v3/push', { ...PUSH, audience: { registration_id: [UNKNOWN_RID] } }),
        status: 400,
        code: 1003,
      },
      rateLimited(req('POST', '/v3/push', PUSH)),
      ...PUSH_REFUSALS,
      faulted(req('POST', '/v3/push', PUSH), { code: 1011, status: 400, name: 'no target' }),
      faulted(req('POST', '/v3/push', PUSH), {
        code: 2005,
        status: 403,
        name: 'volume beyond a reasonable range',
      }),
      busy('POST', '/v3/push', PUSH, 1030),
    ],
  },
  {
    id: 'POST /v3/push/validate',
    cite: 'jpush/push/v3_validate_send.go:39-65 → SendResult',
    success: { request: () => req('POST', '/v3/push/validate', PUSH), shape: SEND },
    failures: [
      unauthorized(req('POST', '/v3/push/validate', PUSH)),
      {
        name: 'no audience',
        request: () => req('POST', '/v3/push/validate', NO_AUDIENCE),
        status: 400,
        code: 1002,
      },
    ],
  },
  {
    id: 'GET /v3/push/cid?type=push|schedule',
    cite: 'jpush/push/v3_get_cid.go:45-54, jpush/schedule/v3_get_cid.go:46',
    success: {
      request: () => req('GET', '/v3/push/cid?type=push&count=2'),
      shape: { cidlist: 'strings' },
    },
    failures: [
      unauthorized(req('GET', '/v3/push/cid?type=schedule&count=2')),
      {
        name: 'count 0',
        request: () => req('GET', '/v3/push/cid?type=push&count=0'),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'GET /v3/push/quota',
    cite: 'jpush/push/v3_get_quota.go:45-127 (QuotaGetResult, total/used *int64)',
    success: {
      request: () => req('GET', '/v3/push/quota'),
      shape: { data: { xiaomi_quota: { system: { total: 'long', used: 'long' } } } },
    },
    failures: [unauthorized(req('GET', '/v3/push/quota'))],
  },
  {
    id: 'DELETE /v3/push/{msg_id}',
    cite: 'jpush/push/v3_withdraw_message.go:46-66 (no content skips the unmarshal)',
    success: { request: ctx => req('DELETE', `/v3/push/${ctx.msgId}`), shape: {} },
    failures: [
      unauthorized(req('DELETE', '/v3/push/1')),
      { name: 'unknown msg_id', request: () => req('DELETE', '/v3/push/1'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'POST /v3/push/batch/{regid|alias}/single',
    cite: 'jpush/push/v3_batch_send.go:68-190',
    success: {
      request: () => req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1)),
      shape: {
        c1: {
          'msg_id?': 'string',
          'error?': { code: 'long', message: 'string', 'illegal_rids?': 'strings' },
        },
      },
    },
    failures: [
      unauthorized(req('POST', '/v3/push/batch/alias/single', BATCH('alias1'))),
      rateLimited(req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1))),
    ],
  },
  {
    id: 'POST /v3/push/template',
    cite: 'jpush/push/v3_template_send.go:59-163 (flat code/message read)',
    decode: readError(templateError),
    success: {
      request: async ({ app }) => {
        await definedTemplate(app)
        return req('POST', '/v3/push/template', TEMPLATE_PUSH)
      },
      shape: {
        code: 'long',
        message: 'string',
        data: { push_list: [{ 'message_id?': 'string', 'trace_id?': 'string' }] },
      },
    },
    failures: [
      unauthorized(req('POST', '/v3/push/template', TEMPLATE_PUSH)),
      {
        name: 'unknown template id',
        request: () => req('POST', '/v3/push/template', { ...TEMPLATE_PUSH, id: 'nope' }),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'POST /v3/push/template/schedule',
    cite: 'jpush/schedule/v3_template_send.go:66 (flat code/message, as the push one)',
    decode: readError(templateError),
    failures: [
      unauthorized(req('POST', '/v3/push/template/schedule', TEMPLATE_SCHEDULE)),
      {
        name: 'empty params',
        request: () => req('POST', '/v3/push/template/schedule', { ...TEMPLATE_SCHEDULE, params: [] }),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'POST /v3/push/file',
    cite: 'jpush/push/v3_send_by_file.go:56 → SendResult',
    failures: [
      unauthorized(req('POST', '/v3/push/file', PUSH)),
      {
        name: 'unknown file_id',
        request: () => req('POST', '/v3/push/file', { ...PUSH, audience: { file: { file_id: 'nope' } } }),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'POST /v3/push_plan/create|update; GET /v3/push_plan/list',
    cite: 'jpush/push/v3_create_plan.go:45-70, v3_update_plan.go:44, v3_list_plans.go:50-77 (flat CodeError)',
    decode: readError(a => flatError('go', a.body)),
    success: {
      request: () => req('GET', '/v3/push_plan/list?page=1&page_size=10&info=&send_source=0'),
      shape: {
        code: 'long',
        message: 'string',
        data: { total: 'long', page: 'long', page_size: 'long', detail: 'array' },
      },
    },
    failures: [
      { name: 'no name', request: () => req('POST', '/v3/push_plan/create', {}), status: 400, code: 1002 },
    ],
  },
  {
    id: 'POST /v3/grouppush; POST /v3/grouppush/file',
    cite: 'jpush/gpush/v3_send.go:56, v3_send_by_file.go:56',
    failures: [
      {
        ...unauthorized(req('POST', '/v3/grouppush', PUSH)),
        name: 'unknown group key',
        request: () =>
          req('POST', '/v3/grouppush', PUSH, {
            authorization: basic(`group-${'g'.repeat(24)}`, 'x'.repeat(24)),
          }),
      },
      unauthorized(req('POST', '/v3/grouppush/file', {})),
    ],
  },
  {
    id: 'POST /v3/schedules',
    cite: 'jpush/schedule/v3_send.go:57-67 → SendResult :111-115',
    success: { request: () => req('POST', '/v3/schedules', SCHEDULE), shape: SCHEDULE_FIELDS },
    failures: [
      unauthorized(req('POST', '/v3/schedules', SCHEDULE)),
      {
        name: 'trigger more than a year ahead',
        request: () => req('POST', '/v3/schedules', SCHEDULE_TOO_LATE),
        status: 400,
        code: 8100,
      },
      rateLimited(req('POST', '/v3/schedules', SCHEDULE)),
      busy('POST', '/v3/schedules', SCHEDULE, 8203),
    ],
  },
  {
    id: 'GET /v3/schedules?page=',
    cite: 'jpush/schedule/v3_get_schedules.go:50-72',
    success: {
      request: () => req('GET', '/v3/schedules?page=1'),
      shape: { total_count: 'long', total_pages: 'long', page: 'long', schedules: [SCHEDULE_FIELDS] },
    },
    failures: [
      unauthorized(req('GET', '/v3/schedules?page=1')),
      { name: 'page 0', request: () => req('GET', '/v3/schedules?page=0'), status: 400, code: 8100 },
    ],
  },
  {
    id: 'GET /v3/schedules/{schedule_id}',
    cite: 'jpush/schedule/v3_get_schedule.go:44',
    success: {
      request: ctx => req('GET', `/v3/schedules/${ctx.scheduleId}`),
      shape: SCHEDULE_FIELDS,
    },
    failures: [
      unauthorized(req('GET', '/v3/schedules/0000')),
      {
        name: 'no such schedule',
        request: () => req('GET', '/v3/schedules/0000'),
        status: 404,
        code: 8104,
      },
    ],
  },
  {
    id: 'GET /v3/schedules/{schedule_id}/msg_ids',
    cite: 'jpush/schedule/v3_get_schedule_msgids.go:47-115',
    success: {
      request: ctx => req('GET', `/v3/schedules/${ctx.scheduleId}/msg_ids`),
      shape: { count: 'long', msgids: 'array' },
    },
    failures: [
      unauthorized(req('GET', '/v3/schedules/0000/msg_ids')),
      {
        name: 'no such schedule',
        request: () => req('GET', '/v3/schedules/0000/msg_ids'),
        status: 404,
        code: 8104,
      },
    ],
  },
  {
    id: 'PUT /v3/schedules/{schedule_id}',
    cite: 'jpush/schedule/v3_update_schedule.go:53',
    success: {
      request: ctx => req('PUT', `/v3/schedules/${ctx.scheduleId}`, { name: 'renamed' }),
      shape: SCHEDULE_FIELDS,
    },
    failures: [
      unauthorized(req('PUT', '/v3/schedules/0000', { name: 'x' })),
      {
        name: 'no such schedule',
        request: () => req('PUT', '/v3/schedules/0000', { name: 'x' }),
        status: 404,
        code: 8104,
      },
    ],
  },
  {
    id: 'DELETE /v3/schedules/{schedule_id}',
    cite: 'jpush/schedule/v3_delete_schedule.go:44',
    success: { request: ctx => req('DELETE', `/v3/schedules/${ctx.scheduleId}`), shape: {} },
    failures: [
      unauthorized(req('DELETE', '/v3/schedules/0000')),
      {
        name: 'no such schedule',
        request: () => req('DELETE', '/v3/schedules/0000'),
        status: 404,
        code: 8104,
      },
    ],
  },
  {
    id: 'GET /v3/devices/{registration_id}',
    cite: 'jpush/device/v3_get_device.go:44-66',
    success: {
      request: () => req('GET', `/v3/devices/${ANDROID_1}`),
      shape: { tags: 'strings', alias: 'string', mobile: 'string' },
    },
    failures: [
      unauthorized(req('GET', `/v3/devices/${ANDROID_1}`)),
      {
        name: 'invalid registration_id',
        request: () => req('GET', '/v3/devices/nope'),
        status: 400,
        code: 7002,
      },
      rateLimited(req('GET', `/v3/devices/${ANDROID_1}`)),
      busy('GET', `/v3/devices/${ANDROID_1}`, undefined, 7030),
    ],
  },
  {
    id: 'POST /v3/devices/{registration_id}',
    cite: 'jpush/device/v3_set_device.go:48-62, v3_clear_device.go:110-124',
    success: { request: () => req('POST', `/v3/devices/${ANDROID_1}`, { alias: 'a2' }), shape: {} },
    failures: [
      unauthorized(req('POST', `/v3/devices/${ANDROID_1}`, { alias: 'a2' })),
      {
        name: 'tags not an add/remove object',
        request: () => req('POST', `/v3/devices/${ANDROID_1}`, { tags: 5 }),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'GET /v3/aliases/{alias}',
    cite: 'jpush/device/v3_get_alias.go:52-79',
    success: {
      request: () => req('GET', '/v3/aliases/alias1?platform=android&new_format=true'),
      shape: { data: [{ registration_id: 'string', platform: 'string', last_online_date: 'string' }] },
    },
    failures: [
      unauthorized(req('GET', '/v3/aliases/alias1')),
      {
        name: 'invalid platform',
        request: () => req('GET', '/v3/aliases/alias1?platform=zz'),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'DELETE /v3/aliases/{alias}; POST /v3/aliases/{alias}',
    cite: 'jpush/device/v3_delete_alias.go:50-63, v3_delete_aliases.go:53-98 (illegal_rids)',
    success: { request: () => req('DELETE', '/v3/aliases/aliaszz'), shape: {} },
    failures: [
      unauthorized(req('DELETE', '/v3/aliases/alias1')),
      {
        name: 'unknown registration_ids (illegal_rids)',
        request: () => req('POST', '/v3/aliases/alias1', REMOVE_UNKNOWN),
        status: 400,
        code: 7013,
      },
    ],
  },
  {
    id: 'GET /v3/tags',
    cite: 'jpush/device/v3_get_tags.go:39-58',
    success: { request: () => req('GET', '/v3/tags'), shape: { tags: 'strings' } },
    failures: [unauthorized(req('GET', '/v3/tags')), rateLimited(req('GET', '/v3/tags'))],
  },
  {
    id: 'GET /v3/tags/{tag}/registration_ids/{registration_id}',
    cite: 'jpush/device/v3_get_tag.go:47-66',
    success: {
      request: () => req('GET', `/v3/tags/tag1/registration_ids/${ANDROID_1}`),
      shape: { result: 'boolean' },
    },
    failures: [
      unauthorized(req('GET', `/v3/tags/tag1/registration_ids/${ANDROID_1}`)),
      {
        name: 'invalid registration_id',
        request: () => req('GET', '/v3/tags/tag1/registration_ids/zz'),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'POST /v3/tags/{tag}; DELETE /v3/tags/{tag}',
    cite: 'jpush/device/v3_set_tag.go:56-98 (illegal_rids), v3_delete_tag.go:50-63',
    success: { request: () => req('POST', '/v3/tags/tag1', ADD_TAG), shape: {} },
    failures: [
      unauthorized(req('POST', '/v3/tags/tag1', ADD_TAG)),
      {
        name: 'unknown registration_ids (illegal_rids)',
        request: () => req('POST', '/v3/tags/tag1', ADD_UNKNOWN),
        status: 400,
        code: 7013,
      },
      {
        name: 'invalid platform',
        request: () => req('DELETE', '/v3/tags/tag1?platform=zz'),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'POST /v3/devices/status',
    cite: 'jpush/device/v3_get_device_status.go:49-118 (Online bool, LastOnlineTime)',
    success: {
      request: () => req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }),
      shape: { [ANDROID_1]: { online: 'boolean', 'last_online_time?': 'string' } },
    },
    failures: [unauthorized(req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }))],
  },
  {
    id: 'POST /v3/test/model/add|update; GET /v3/test/model/list; DELETE /v3/test/model/delete/{rid}',
    cite: 'jpush/device/v3_add_test_device.go:47-73, v3_list_test_devices.go:73-104',
    success: {
      request: () => req('GET', '/v3/test/model/list'),
      shape: { total: 'long', page: 'long', page_size: 'long', detail: 'array' },
    },
    failures: [
      unauthorized(req('GET', '/v3/test/model/list')),
      {
        name: 'no device_name',
        request: () => req('POST', '/v3/test/model/add', {}),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'GET /v3/received/detail',
    cite: 'jpush/report/v3_get_received_detail.go:51-92 (a list; counts *uint64)',
    success: {
      request: ctx => req('GET', `/v3/received/detail?msg_ids=${ctx.msgId}`),
      shape: [
        {
          msg_id: 'string',
          jpush_received: 'long',
          ios_apns_sent: 'long',
          'android_pns_sent?': 'long',
        },
      ],
    },
    failures: [
      unauthorized(req('GET', '/v3/received/detail?msg_ids=1')),
      {
        name: 'msg_ids invalid',
        request: () => req('GET', '/v3/received/detail?msg_ids=abc'),
        status: 400,
        code: 3002,
      },
      rateLimited(req('GET', '/v3/received/detail?msg_ids=1')),
    ],
  },
  {
    id: 'POST /v3/status/message',
    cite: 'jpush/report/v3_get_message_status.go:52-118',
    success: {
      request: ctx => req('POST', '/v3/status/message', { msg_id: ctx.msgId, registration_ids: [ANDROID_1] }),
      shape: { [ANDROID_1]: { status: 'long' } },
    },
    failures: [
      unauthorized(req('POST', '/v3/status/message', { msg_id: '1', registration_ids: [ANDROID_1] })),
    ],
  },
  {
    id: 'GET /v3/messages/detail',
    cite: 'jpush/report/v3_get_message_detail.go:49-107',
    success: {
      request: ctx => req('GET', `/v3/messages/detail?msg_ids=${ctx.msgId}`),
      shape: [
        {
          msg_id: 'string',
          details: { notification: { target: 'long', sent: 'long', received: 'long' } },
        },
      ],
    },
    failures: [
      unauthorized(req('GET', '/v3/messages/detail?msg_ids=1')),
      {
        name: 'msg_ids invalid',
        request: () => req('GET', '/v3/messages/detail?msg_ids=abc'),
        status: 400,
        code: 3002,
      },
    ],
  },
  {
    id: 'GET /v3/users',
    cite: 'jpush/report/v3_get_user_detail.go:65-150',
    success: {
      request: () => req('GET', '/v3/users?time_unit=DAY&start=2026-01-01&duration=1'),
      shape: {
        time_unit: 'string',
        start: 'string',
        duration: 'long',
        items: [{ time: 'string', 'android?': { new: 'long', online: 'long', active: 'long' } }],
      },
    },
    failures: [
      unauthorized(req('GET', '/v3/users?time_unit=DAY&start=2026-01-01&duration=1')),
      {
        name: 'time_unit invalid',
        request: () => req('GET', '/v3/users?time_unit=X&start=2026-01-01&duration=1'),
        status: 400,
        code: 3002,
      },
    ],
  },
  {
    id: 'GET /v3/group/messages/detail; GET /v3/group/users',
    cite: 'jpush/greport/v3_get_message_detail.go:50, v3_get_user_detail.go:66',
    failures: [
      unauthorized(req('GET', '/v3/group/messages/detail?group_msgids=x')),
      unauthorized(req('GET', '/v3/group/users?time_unit=DAY&start=2026-01-01&duration=1')),
    ],
  },
  {
    id: 'POST /v3/files/{type}; GET /v3/files; GET|DELETE /v3/files/{file_id}',
    cite: 'jpush/file/v3_upload_file.go:77, v3_get_files.go:39, v3_get_file.go:45, v3_delete_file.go:49',
    success: { request: () => req('GET', '/v3/files'), shape: { total_count: 'long', files: 'array' } },
    failures: [
      unauthorized(req('POST', '/v3/files/registration_id', {})),
      { name: 'unknown file_id', request: () => req('GET', '/v3/files/nope'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'POST|PUT /v3/images/{byurls|byfiles}',
    cite: 'jpush/image/v3_add_by_url.go:48, v3_update_by_url.go:47, v3_add_by_file.go:77, v3_update_by_file.go:75',
    failures: [
      unauthorized(req('POST', '/v3/images/byfiles', {})),
      {
        name: 'no image_type',
        request: () => req('POST', '/v3/images/byurls', { image_url: 'https://img.example/a.png' }),
        status: 400,
        code: 1002,
      },
      {
        name: 'unknown media_id',
        request: () => req('PUT', '/v3/images/byurls/nope', { image_url: 'https://img.example/a.png' }),
        status: 400,
        code: 1003,
      },
    ],
  },
  // JSMS v1: the same CodeError under `error` (jsms/m_send.go:24-28; msg_id a string or a number, :30-64).
  {
    id: 'POST /v1/codes',
    cite: 'jsms/v1_send_code.go:44-58 → m_send.go sendResult',
    success: { request: () => req('POST', '/v1/codes', SMS_CODE), shape: { msg_id: 'string' } },
    failures: [
      unauthorized(req('POST', '/v1/codes', SMS_CODE)),
      {
        name: 'invalid mobile',
        request: () => req('POST', '/v1/codes', { ...SMS_CODE, mobile: '123' }),
        status: 403,
        code: 50006,
      },
      faulted(req('POST', '/v1/codes', SMS_CODE), { code: 50019, status: 500, name: 'server error' }),
    ],
  },
  {
    id: 'POST /v1/codes/{msg_id}/valid',
    cite: 'jsms/v1_verify_code.go:47-74 (is_valid bool)',
    success: {
      request: ctx => req('POST', `/v1/codes/${ctx.codeMsgId}/valid`, { code: '000000' }),
      shape: { is_valid: 'boolean' },
      status: 403,
    },
    failures: [
      unauthorized(req('POST', '/v1/codes/1/valid', { code: '123456' })),
      {
        name: 'wrong msg_id',
        request: () => req('POST', '/v1/codes/0000/valid', { code: '123456' }),
        status: 403,
        code: 50026,
      },
    ],
  },
  {
    id: 'POST /v1/voice_codes',
    cite: 'jsms/v1_send_voice_code.go:52',
    success: {
      request: () => req('POST', '/v1/voice_codes', { mobile: '13800138001' }),
      shape: { msg_id: 'string' },
    },
    failures: [
      unauthorized(req('POST', '/v1/voice_codes', { mobile: '13800138001' })),
      {
        name: 'invalid mobile',
        request: () => req('POST', '/v1/voice_codes', { mobile: '1' }),
        status: 403,
        code: 50006,
      },
    ],
  },
  {
    id: 'POST /v1/messages',
    cite: 'jsms/v1_send_message.go:44',
    success: { request: () => req('POST', '/v1/messages', SMS_MESSAGE), shape: { msg_id: 'string' } },
    failures: [
      unauthorized(req('POST', '/v1/messages', SMS_MESSAGE)),
      {
        name: 'invalid temp_id',
        request: () => req('POST', '/v1/messages', { ...SMS_MESSAGE, temp_id: 999 }),
        status: 403,
        code: 50013,
      },
    ],
  },
  {
    id: 'POST /v1/messages/batch',
    cite: 'jsms/v1_send_batch_message.go:45-93 (counts *uint64, recipients)',
    success: {
      request: () => req('POST', '/v1/messages/batch', SMS_BATCH),
      shape: {
        success_count: 'long',
        failure_count: 'long',
        recipients: [
          { 'error_code?': 'string', 'error_message?': 'string', 'msg_id?': 'string', mobile: 'string' },
        ],
      },
    },
    failures: [
      unauthorized(req('POST', '/v1/messages/batch', SMS_BATCH)),
      {
        name: 'recipients empty',
        request: () => req('POST', '/v1/messages/batch', { temp_id: 2, recipients: [] }),
        status: 403,
        code: 50030,
      },
    ],
  },
  {
    id: 'POST /v1/schedule; PUT /v1/schedule/{schedule_id}',
    cite: 'jsms/v1_send_schedule.go:45-73, v1_update_schedule.go:47',
    success: {
      request: ctx => req('PUT', `/v1/schedule/${ctx.smsScheduleId}`, SMS_SCHEDULE),
      shape: { schedule_id: 'string' },
    },
    failures: [
      unauthorized(req('POST', '/v1/schedule', SMS_SCHEDULE)),
      {
        name: 'invalid schedule_id',
        request: () => req('PUT', '/v1/schedule/zzz', SMS_SCHEDULE),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'POST /v1/schedule/batch; PUT /v1/schedule/batch/{schedule_id}',
    cite: 'jsms/v1_send_batch_schedule.go:46, v1_update_batch_schedule.go:47',
    success: {
      request: ctx => req('PUT', `/v1/schedule/batch/${ctx.smsBatchScheduleId}`, SMS_SCHEDULE_BATCH),
      shape: { schedule_id: 'string', success_count: 'long', failure_count: 'long' },
    },
    failures: [
      unauthorized(req('POST', '/v1/schedule/batch', SMS_SCHEDULE_BATCH)),
      {
        name: 'invalid schedule_id',
        request: () => req('PUT', '/v1/schedule/batch/zzz', SMS_SCHEDULE_BATCH),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'GET /v1/schedule/{schedule_id}; DELETE /v1/schedule/{schedule_id}',
    cite: 'jsms/v1_get_schedule.go:45-74 (send_time a LocalDateTime, temp_id int64), v1_delete_schedule.go:44',
    success: {
      request: ctx => req('GET', `/v1/schedule/${ctx.smsScheduleId}`),
      shape: {
        schedule_id: 'string',
        send_time: 'string',
        temp_id: 'long',
        recipients: [{ 'msg_id?': 'string', mobile: 'string', 'temp_para?': 'object' }],
      },
    },
    failures: [
      unauthorized(req('GET', '/v1/schedule/zzz')),
      {
        name: 'invalid schedule_id',
        request: () => req('DELETE', '/v1/schedule/zzz'),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'GET /v1/accounts/dev',
    cite: 'jsms/v1_get_dev_balance.go:45-67 (*uint64)',
    success: {
      request: () => req('GET', '/v1/accounts/dev', undefined, devAuth),
      shape: { dev_balance: 'long', dev_voice: 'long', dev_industry: 'long', dev_market: 'long' },
    },
    failures: [
      {
        name: 'app credentials on the developer endpoint',
        request: () => req('GET', '/v1/accounts/dev'),
        status: 401,
        code: 50002,
      },
    ],
  },
  {
    id: 'GET /v1/accounts/app',
    cite: 'jsms/v1_get_app_balance.go:41-63 (*uint64)',
    success: {
      request: () => req('GET', '/v1/accounts/app'),
      shape: { app_balance: 'long', app_voice: 'long', app_industry: 'long', app_market: 'long' },
    },
    failures: [unauthorized(req('GET', '/v1/accounts/app'))],
  },
  {
    id: 'POST /v1/templates; PUT /v1/templates/{temp_id}',
    cite: 'jsms/v1_create_update_template.go:91-128 (temp_id int64)',
    success: { request: () => req('POST', '/v1/templates', SMS_TEMPLATE), shape: { temp_id: 'long' } },
    failures: [
      unauthorized(req('POST', '/v1/templates', SMS_TEMPLATE)),
      {
        name: 'an approved template cannot be modified',
        request: () => req('PUT', '/v1/templates/1', SMS_TEMPLATE),
        status: 403,
        code: 50047,
      },
    ],
  },
  {
    id: 'GET /v1/templates/{temp_id}; DELETE /v1/templates/{temp_id}',
    cite: 'jsms/v1_get_template.go:45-69, v1_delete_template.go:45-65',
    success: {
      request: ctx => req('GET', `/v1/templates/${ctx.tempId}`),
      shape: {
        temp_id: 'long',
        template: 'string',
        type: 'long',
        ttl: 'long',
        remark: 'string',
        status: 'long',
      },
    },
    failures: [
      unauthorized(req('GET', '/v1/templates/1')),
      {
        name: 'invalid temp_id',
        request: () => req('DELETE', '/v1/templates/999'),
        status: 403,
        code: 50013,
      },
    ],
  },
  {
    id: 'POST /v1/sign; POST /v1/sign/{sign_id}',
    cite: 'jsms/v1_create_update_sign.go:71-81 (the same CodeError)',
    failures: [
      unauthorized(req('POST', '/v1/sign', {})),
      {
        name: 'not multipart (media not supported)',
        request: () => req('POST', '/v1/sign/1', {}),
        status: 415,
        code: 50017,
      },
    ],
  },
  {
    id: 'GET /v1/sign/{sign_id}; DELETE /v1/sign/{sign_id}',
    cite: 'jsms/v1_get_sign.go:45-108 (is_default, use_status ints), v1_delete_sign.go:45',
    success: {
      request: () => req('GET', '/v1/sign/1'),
      shape: { sign_id: 'long', sign: 'string', status: 'long', is_default: 'long', 'use_status?': 'long' },
    },
    failures: [
      unauthorized(req('GET', '/v1/sign/1')),
      { name: 'invalid sign id', request: () => req('DELETE', '/v1/sign/999'), status: 403, code: 50102 },
    ],
  },
  {
    id: 'GET /v1/report; GET /v1/reply',
    cite: 'jsms/v1_get_report.go:42-81 (a list, or {error}), v1_get_reply.go:42',
    success: { request: () => req('GET', '/v1/report'), shape: [{}] },
    failures: [unauthorized(req('GET', '/v1/report')), unauthorized(req('GET', '/v1/reply'))],
  },
  {
    id: 'POST /v1/app (Admin API)',
    cite: 'jpush/admin/v1_create_app.go:42-74',
    success: {
      request: () => req('POST', '/admin/v1/app', NEW_APP, ADMIN_DEV),
      shape: {
        app_key: 'string',
        android_package: 'string',
        is_new_created: 'boolean',
        master_secret: 'string',
      },
    },
    failures: [adminUnauthorized('POST', '/admin/v1/app', NEW_APP)],
  },
  {
    id: 'POST /v1/app/{app_key}/delete; POST /v1/app/{app_key}/certificate (Admin API)',
    cite: 'jpush/admin/v1_delete_app.go:42-63, v1_upload_certificate.go:82-111',
    failures: [
      adminUnauthorized('POST', '/admin/v1/app/nope/delete', {}),
      {
        // HTTP 200 with an error body: Go reads `error` whatever the status
        name: 'unknown appkey (HTTP 200)',
        request: () => req('POST', '/admin/v1/app/nope/delete', {}, ADMIN_DEV),
        status: 200,
        code: 1013,
      },
      {
        name: 'unknown appkey (HTTP 200)',
        request: () => req('POST', '/admin/v1/app/nope/certificate', {}, ADMIN_DEV),
        status: 200,
        code: 1013,
      },
    ],
  },
]

checkCalls(client, endpoints)

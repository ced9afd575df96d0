import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { basic } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import {
  ADD_TAG,
  ADD_UNKNOWN,
  BATCH,
  badAuth,
  checkCalls,
  faulted,
  NO_AUDIENCE,
  PUSH,
  PUSH_REFUSALS,
  REMOVE_UNKNOWN,
  rateLimited,
  SCHEDULE,
  SCHEDULE_TOO_LATE,
  UNKNOWN_RID,
  unauthorized,
} from './catalogue.js'
import { type Call, type Failure, rateHeaders, req, responseWrapperError, throwing } from './decoder.js'

// jpush/jpush-api-java-client at 71ffa03d85d2712129516ea47e2d0440ca870a19 (3.7.8), on
// jpush/jiguang-java-client-common at 778febdf16c8ad1b8d6c671213959c314648f70d (jiguang-common:
// ResponseWrapper, APIRequestException, NativeHttpClient). Client paths are under
// src/main/java/cn/jpush/api/, common ones under src/main/java/cn/jiguang/common/.
//
// Its decoder:
// - connection/NativeHttpClient.java:163-232 (common): any status outside 2xx/3xx throws
//   APIRequestException; only 400, 401, 403, 404, 410 and 429 have their body parsed
//   (:198-221); 500/502/503/504 are not (:222-227), so getErrorCode() is -1 there
//   (resp/APIRequestException.java:33-39).
// - resp/ResponseWrapper.java:46-85 (common): the body's first object holding `error` (when it is
//   a list) or the object itself; `msg_id` read as a long (:67-69); code and message from
//   `error` when present, else from the top level (:70-78): nested and flat envelopes both read.
//   Gson's getAsInt/getAsLong accept numbers and numeric strings; anything else throws, caught,
//   leaving code 0.
// - NativeHttpClient.java:183-186 → ResponseWrapper.java:32-44: X-Rate-Limit-Limit, -Remaining,
//   -Reset parsed with Integer.parseInt, on every answer, only when Limit is present.
// - Successes: BaseResult.fromResponse (resp/BaseResult.java:45-64) binds the body with Gson,
//   @Expose fields only, unknown keys ignored, scalars coerced.

const client = throwing({
  runtime: 'gson',
  error: responseWrapperError,
  rate: a => rateHeaders(a.headers),
})

const busy = (url: string, code: number): Failure => ({
  ...faulted(req('POST', url, PUSH), { code, status: 503, name: 'service busy: body not parsed' }),
  read: -1,
})

const ADMIN_DEV = { authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET) }
const NEW_APP = { app_name: 'decoder', android_package: 'com.decoder.app', group_name: 'decoders' }
/** The Admin API (admin.jpush.cn/v1, at /admin/v1 on any host) with an unknown dev key: 401 4004. */
const adminUnauthorized = (method: 'POST' | 'DELETE', url: string, body?: unknown): Failure => ({
  name: 'unknown dev key',
  request: () => req(method, url, body, badAuth('nodevkey0000000000000000')),
  status: 401,
  code: 4004,
})

const PUSH_RESULT = { msg_id: 'long', sendno: 'int' } as const

const endpoints: Call[] = [
  {
    id: 'POST /v3/push',
    cite: 'push/PushClient.java:168-173 → push/PushResult.java:11-17',
    success: { request: () => req('POST', '/v3/push', PUSH), shape: PUSH_RESULT },
    failures: [
      unauthorized(req('POST', '/v3/push', PUSH)),
      {
        name: 'no audience',
        request: () => req('POST', '/v3/push', NO_AUDIENCE),
        status: 400,
        code: 1002,
      },
      {
        name: 'unknown registration_id',
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
      busy('/v3/push', 1030),
    ],
  },
  {
    id: 'POST /v3/push/validate',
    cite: 'push/PushClient.java:177-182 → PushResult',
    success: { request: () => req('POST', '/v3/push/validate', PUSH), shape: PUSH_RESULT },
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
    id: 'POST /v3/push/file',
    cite: 'push/PushClient.java:199-204 → PushResult',
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
    id: 'POST /v3/push/batch/{regid|alias}/single',
    cite: 'push/PushClient.java:221-255 → push/model/BatchPushResult.java:18-39',
    success: {
      request: () => req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1)),
      shape: { c1: { 'msg_id?': 'long', 'error?': { code: 'int', message: 'string' } } },
    },
    failures: [
      unauthorized(req('POST', '/v3/push/batch/alias/single', BATCH('alias1'))),
      rateLimited(req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1))),
    ],
  },
  {
    id: 'GET /v3/push/cid',
    cite: 'push/PushClient.java:268-277 → push/CIDResult.java:11',
    success: {
      request: () => req('GET', '/v3/push/cid?count=2&type=push'),
      shape: { cidlist: 'strings' },
    },
    failures: [
      unauthorized(req('GET', '/v3/push/cid?count=2')),
      { name: 'count 0', request: () => req('GET', '/v3/push/cid?count=0'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'DELETE /v3/push/{msg_id}',
    cite: 'push/PushClient.java:288-293 → DefaultResult (status only)',
    success: { request: ctx => req('DELETE', `/v3/push/${ctx.msgId}`), shape: {} },
    failures: [
      unauthorized(req('DELETE', '/v3/push/1')),
      { name: 'unknown msg_id', request: () => req('DELETE', '/v3/push/1'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'POST /v3/grouppush',
    cite: 'push/GroupPushClient.java:51-60 → Map<String, PushResult>',
    failures: [
      {
        ...unauthorized(req('POST', '/v3/grouppush', PUSH)),
        name: 'unknown group key',
        request: () =>
          req('POST', '/v3/grouppush', PUSH, {
            authorization: basic(`group-${'g'.repeat(24)}`, 'x'.repeat(24)),
          }),
      },
    ],
  },
  {
    id: 'POST /v3/schedules',
    cite: 'schedule/ScheduleClient.java:93-117 → schedule/ScheduleResult.java:11-15',
    success: {
      request: () => req('POST', '/v3/schedules', SCHEDULE),
      shape: { schedule_id: 'string', name: 'string' },
    },
    failures: [
      unauthorized(req('POST', '/v3/schedules', SCHEDULE)),
      {
        name: 'trigger more than a year ahead',
        request: () => req('POST', '/v3/schedules', SCHEDULE_TOO_LATE),
        status: 400,
        code: 8100,
      },
      rateLimited(req('POST', '/v3/schedules', SCHEDULE)),
      {
        ...faulted(req('POST', '/v3/schedules', SCHEDULE), { code: 8203, status: 503, name: 'timeout' }),
        read: -1,
      },
    ],
  },
  {
    id: 'GET /v3/schedules?page=',
    cite: 'schedule/ScheduleClient.java:120-125 → schedule/ScheduleListResult.java:13-16',
    success: {
      request: () => req('GET', '/v3/schedules?page=1'),
      shape: {
        total_count: 'int',
        total_pages: 'int',
        page: 'int',
        schedules: [
          { schedule_id: 'string', name: 'string', enabled: 'boolean', trigger: 'object', push: 'object' },
        ],
      },
    },
    failures: [
      unauthorized(req('GET', '/v3/schedules?page=1')),
      { name: 'page 0', request: () => req('GET', '/v3/schedules?page=0'), status: 400, code: 8100 },
    ],
  },
  {
    id: 'GET /v3/schedules/{schedule_id}',
    cite: 'schedule/ScheduleClient.java:128-133 → ScheduleResult',
    success: {
      request: ctx => req('GET', `/v3/schedules/${ctx.scheduleId}`),
      shape: {
        schedule_id: 'string',
        name: 'string',
        enabled: 'boolean',
        trigger: 'object',
        push: 'object',
      },
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
    cite: 'schedule/ScheduleClient.java:136-141 → schedule/ScheduleMsgIdsResult.java:16-18',
    success: {
      request: ctx => req('GET', `/v3/schedules/${ctx.scheduleId}/msg_ids`),
      shape: { count: 'int', msgids: 'array' },
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
    cite: 'schedule/ScheduleClient.java:144-161 → ScheduleResult',
    success: {
      request: ctx => req('PUT', `/v3/schedules/${ctx.scheduleId}`, { name: 'renamed' }),
      shape: { schedule_id: 'string', name: 'string' },
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
    cite: 'schedule/ScheduleClient.java:164-168 (status only)',
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
    cite: 'device/DeviceClient.java:96-101 → device/TagAliasResult.java:12-13',
    success: {
      request: () => req('GET', `/v3/devices/${ANDROID_1}`),
      shape: { tags: 'strings', alias: 'string' },
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
      {
        ...faulted(req('GET', `/v3/devices/${ANDROID_1}`, undefined), {
          code: 7030,
          status: 503,
          name: 'system busy',
        }),
        read: -1,
      },
    ],
  },
  {
    id: 'POST /v3/devices/{registration_id}',
    cite: 'device/DeviceClient.java:104-164 (updateDeviceTagAlias, bindMobile → DefaultResult)',
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
    id: 'GET /v3/tags/',
    cite: 'device/DeviceClient.java:169-174 (a trailing slash) → device/TagListResult.java:13',
    success: { request: () => req('GET', '/v3/tags/'), shape: { tags: 'strings' } },
    failures: [unauthorized(req('GET', '/v3/tags/')), rateLimited(req('GET', '/v3/tags'))],
  },
  {
    id: 'GET /v3/tags/{tag}/registration_ids/{registration_id}',
    cite: 'device/DeviceClient.java:177-181 → resp/BooleanResult.java:7 (common)',
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
    id: 'POST /v3/tags/{tag}',
    cite: 'device/DeviceClient.java:184-209 → DefaultResult',
    success: { request: () => req('POST', '/v3/tags/tag1', ADD_TAG), shape: {} },
    failures: [
      unauthorized(req('POST', '/v3/tags/tag1', ADD_TAG)),
      {
        name: 'unknown registration_ids (illegal_rids not read)',
        request: () => req('POST', '/v3/tags/tag1', ADD_UNKNOWN),
        status: 400,
        code: 7013,
      },
    ],
  },
  {
    id: 'DELETE /v3/tags/{tag}',
    cite: 'device/DeviceClient.java:212-220 → DefaultResult',
    failures: [
      unauthorized(req('DELETE', '/v3/tags/tag1')),
      {
        name: 'invalid platform',
        request: () => req('DELETE', '/v3/tags/tag1?platform=zz'),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'GET /v3/aliases/{alias}',
    cite: 'device/DeviceClient.java:226-234 → device/AliasDeviceListResult.java:12',
    success: { request: () => req('GET', '/v3/aliases/alias1'), shape: { registration_ids: 'strings' } },
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
    cite: 'device/DeviceClient.java:237-266 → DefaultResult',
    failures: [
      unauthorized(req('DELETE', '/v3/aliases/alias1')),
      {
        name: 'unknown registration_ids',
        request: () => req('POST', '/v3/aliases/alias1', REMOVE_UNKNOWN),
        status: 400,
        code: 7013,
      },
    ],
  },
  {
    id: 'POST /v3/devices/status',
    cite: 'device/DeviceClient.java:279-287 → Map<String, device/OnlineStatus.java>',
    success: {
      request: () => req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }),
      shape: { [ANDROID_1]: { online: 'boolean', 'last_online_time?': 'string' } },
    },
    failures: [unauthorized(req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }))],
  },
  {
    id: 'GET /v3/received',
    cite: 'report/ReportClient.java:107-114 → report/ReceivedsResult.java:17-49 (a list)',
    success: {
      request: ctx => req('GET', `/v3/received?msg_ids=${ctx.msgId}`),
      shape: [{ msg_id: 'long', android_received: 'int', ios_apns_sent: 'int' }],
    },
    failures: [
      unauthorized(req('GET', '/v3/received?msg_ids=1')),
      {
        name: 'msg_ids invalid',
        request: () => req('GET', '/v3/received?msg_ids=abc'),
        status: 400,
        code: 3002,
      },
      rateLimited(req('GET', '/v3/received?msg_ids=1')),
    ],
  },
  {
    id: 'GET /v3/received/detail',
    cite: 'report/ReportClient.java:117-124 → ReceivedsResult',
    success: {
      request: ctx => req('GET', `/v3/received/detail?msg_ids=${ctx.msgId}`),
      shape: [{ msg_id: 'long', jpush_received: 'int', 'android_pns_sent?': 'int' }],
    },
    failures: [
      unauthorized(req('GET', '/v3/received/detail?msg_ids=1')),
      {
        name: 'msg_ids invalid',
        request: () => req('GET', '/v3/received/detail?msg_ids=abc'),
        status: 400,
        code: 3002,
      },
    ],
  },
  {
    id: 'GET /v3/messages',
    cite: 'report/ReportClient.java:127-134 → report/MessagesResult.java:17-55 (a list)',
    success: {
      request: ctx => req('GET', `/v3/messages?msg_ids=${ctx.msgId}`),
      shape: [
        {
          msg_id: 'string',
          android: { received: 'int', target: 'int', online_push: 'int', click: 'int', msg_click: 'int' },
          ios: { apns_sent: 'int', apns_target: 'int', apns_received: 'int', click: 'int', target: 'int' },
        },
      ],
    },
    failures: [
      unauthorized(req('GET', '/v3/messages?msg_ids=1')),
      {
        name: 'msg_ids invalid',
        request: () => req('GET', '/v3/messages?msg_ids=abc'),
        status: 400,
        code: 3002,
      },
    ],
  },
  {
    id: 'GET /v3/messages/detail',
    cite: 'report/ReportClient.java:137-144 → report/MessageDetailResult.java:19-61 (a list)',
    success: {
      request: ctx => req('GET', `/v3/messages/detail?msg_ids=${ctx.msgId}`),
      shape: [{ msg_id: 'long', 'details?': 'object' }],
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
    id: 'GET /v3/group/messages/detail; GET /v3/group/users',
    cite: 'report/ReportClient.java:148-153, 181-194 → report/GroupMessageDetailResult.java, GroupUsersResult.java',
    failures: [unauthorized(req('GET', '/v3/group/messages/detail?group_msgids=x'))],
  },
  {
    id: 'POST /v3/status/message',
    cite: 'report/ReportClient.java:156-162 → Map<String, report/MessageStatus.java>',
    success: {
      request: ctx =>
        req('POST', '/v3/status/message', {
          msg_id: Number(ctx.msgId),
          registration_ids: [ANDROID_1],
        }),
      shape: { [ANDROID_1]: { status: 'int' } },
    },
    failures: [unauthorized(req('POST', '/v3/status/message', { msg_id: 1, registration_ids: [ANDROID_1] }))],
  },
  {
    id: 'GET /v3/users',
    cite: 'report/ReportClient.java:165-178 → report/UsersResult.java:15-36',
    success: {
      request: () => req('GET', '/v3/users?time_unit=DAY&start=2026-01-01&duration=1'),
      shape: {
        time_unit: 'string',
        start: 'string',
        duration: 'int',
        items: [{ time: 'string', android: { new: 'long', online: 'int', active: 'int' } }],
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
    id: 'GET /v3/files/; GET|DELETE /v3/files/{file_id}; POST /v3/files/{type}',
    cite: 'file/FileClient.java:49-94 → file/model/FileModelPage.java, FileModel.java, FileUploadResult.java',
    success: { request: () => req('GET', '/v3/files/'), shape: { total_count: 'int', files: 'array' } },
    failures: [
      unauthorized(req('GET', '/v3/files/')),
      { name: 'unknown file_id', request: () => req('GET', '/v3/files/nope'), status: 400, code: 1003 },
      unauthorized(req('POST', '/v3/files/alias', {})),
    ],
  },
  {
    id: 'POST|PUT /v3/images/{byurls|byfiles}',
    cite: 'image/ImageClient.java:60-152 → image/model/ImageUploadResult.java',
    failures: [
      unauthorized(req('POST', '/v3/images/byurls', {})),
      {
        name: 'unknown media_id',
        request: () => req('PUT', '/v3/images/byurls/nope', { image_url: 'https://img.example/a.png' }),
        status: 400,
        code: 1003,
      },
      unauthorized(req('POST', '/v3/images/byfiles', {})),
    ],
  },
  {
    id: 'POST /v1/app (Admin API)',
    cite: 'admin/AdminClient.java:72-83 → admin/CreateAppResult.java:6-9 (master_secret not read)',
    success: {
      request: () => req('POST', '/admin/v1/app', NEW_APP, ADMIN_DEV),
      shape: { app_key: 'string', is_new_created: 'boolean', android_package: 'string' },
    },
    failures: [adminUnauthorized('POST', '/admin/v1/app', NEW_APP)],
  },
  {
    id: 'DELETE /v1/app/{app_key}/delete; POST /v1/app/{app_key}/certificate (Admin API)',
    cite: 'admin/AdminClient.java:93-95 → admin/AppResult.java:8, :108-116',
    failures: [
      adminUnauthorized('DELETE', '/admin/v1/app/nope/delete'),
      {
        // the Admin API answers its refusals with HTTP 200: no exception, and AppResult has no error field
        name: 'unknown appkey (HTTP 200: the client does not read it)',
        request: () => req('DELETE', '/admin/v1/app/nope/delete', undefined, ADMIN_DEV),
        status: 200,
        code: 1013,
        read: -1,
      },
    ],
  },
]

checkCalls(client, endpoints)

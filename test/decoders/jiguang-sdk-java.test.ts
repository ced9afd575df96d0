import { ANDROID_1 } from '../push/helpers.js'
import {
  ADD_TAG,
  ADD_UNKNOWN,
  BATCH,
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
  rateHeaders,
  readError,
  req,
  throwing,
  unknownKeys,
} from './decoder.js'

// jpush/jiguang-sdk-java at 940a46d15a1226977368daec0af2535cb7693a3a (the vendor's current Java
// SDK, 5.x: Feign interfaces, Jackson). Paths below are under jiguang-sdk/src/main/java/cn/jiguang/sdk/.
//
// Its decoders:
// - codec/ApiDecoder.java:31-43 decodes a 2xx with a plain `new ObjectMapper()` (:25), so a result
//   bean without @JsonIgnoreProperties(ignoreUnknown = true) fails on any key it does not declare
//   (`strict` below); and only when Content-Type starts with application/json (:48-51), else null.
// - codec/ApiErrorDecoder.java:59-68 reads every non-2xx as ApiErrorException.ApiError
//   (exception/ApiErrorException.java:74-98: {"msg_id"?, "error":{"code":Integer,"message":String}},
//   unknown keys ignored); without `error` the constructor (:26-27) throws and the decoder answers
//   its own 500 "unknown error" (ApiErrorDecoder.java:64-66, :87-89).
// - templateSend / scheduleTemplateSend (ApiErrorDecoder.java:38-54) read a flat TemplateResult
//   (bean/push/other/TemplateResult.java: code, message, message_id, schedule_id, trace_id; strict).
// - ApiErrorException.java:35-46 reads x-rate-limit-limit, -remaining and -reset as ints on every
//   failure (BaseResult.java does the same on a success).

const nested = (a: Answer) => nestedError('jackson', a.body)

/** ApiErrorDecoder.java:45-54: a flat TemplateResult, strict (no ignoreUnknown). */
const templateError = (a: Answer) => {
  const extra = unknownKeys(a.body, ['code', 'message', 'message_id', 'schedule_id', 'trace_id'])
  if (extra.length > 0) throw new Error(`TemplateResult does not know ${extra.join(', ')}`)
  return flatError('jackson', a.body)
}

const client = throwing({
  runtime: 'jackson',
  error: nested,
  rate: a => rateHeaders(a.headers),
  accepts: a =>
    String(a.headers['content-type']).startsWith('application/json') ? [] : ['not application/json'],
})

const pushFailures = (url: string): Failure[] => [
  unauthorized(req('POST', url, PUSH)),
  { name: 'no audience', request: () => req('POST', url, NO_AUDIENCE), status: 400, code: 1002 },
  rateLimited(req('POST', url, PUSH)),
]

const endpoints: Call[] = [
  {
    id: 'POST /v3/push',
    cite: 'client/PushClient.java:22-24 → bean/push/PushSendResult.java:10-16 (strict)',
    success: {
      request: () => req('POST', '/v3/push', PUSH),
      shape: { sendno: 'string', msg_id: 'string' },
      strict: ['sendno', 'msg_id'],
    },
    failures: [
      ...pushFailures('/v3/push'),
      {
        name: 'unknown registration_id (illegal_rids ignored)',
        request: () => req('POST', '/v3/push', { ...PUSH, audience: { registration_id: [UNKNOWN_RID] } }),
        status: 400,
        code: 1003,
      },
      ...PUSH_REFUSALS,
      faulted(req('POST', '/v3/push', PUSH), { code: 1011, status: 400, name: 'no target' }),
      faulted(req('POST', '/v3/push', PUSH), {
        code: 2005,
        status: 403,
        name: 'volume beyond a reasonable range',
      }),
      faulted(req('POST', '/v3/push', PUSH), { code: 1030, status: 503, name: 'internal service timeout' }),
    ],
  },
  {
    id: 'POST /v3/push/validate',
    cite: 'client/PushClient.java:42-44 → PushSendResult (strict)',
    success: {
      request: () => req('POST', '/v3/push/validate', PUSH),
      shape: { sendno: 'string', msg_id: 'string' },
      strict: ['sendno', 'msg_id'],
    },
    failures: pushFailures('/v3/push/validate'),
  },
  {
    id: 'POST /v3/schedules',
    cite: 'client/PushClient.java:30-32 → bean/push/SchedulePushSendResult.java:10-16 (strict)',
    success: {
      request: () => req('POST', '/v3/schedules', SCHEDULE),
      shape: { schedule_id: 'string', name: 'string' },
      strict: ['schedule_id', 'name'],
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
      faulted(req('POST', '/v3/schedules', SCHEDULE), { code: 8203, status: 503, name: 'schedule timeout' }),
    ],
  },
  {
    id: 'GET /v3/push/cid?type=push|schedule',
    cite: 'client/PushClient.java:34-40 → bean/push/other/CidGetResult.java:12-15 (strict)',
    success: {
      request: () => req('GET', '/v3/push/cid?type=schedule&count=2'),
      shape: { cidlist: 'strings' },
      strict: ['cidlist'],
    },
    failures: [
      unauthorized(req('GET', '/v3/push/cid?type=push&count=2')),
      {
        name: 'count 0',
        request: () => req('GET', '/v3/push/cid?type=push&count=0'),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'DELETE /v3/push/{msg_id}',
    cite: 'client/PushClient.java:46-48 (void: only failures decoded)',
    failures: [
      unauthorized(req('DELETE', '/v3/push/18100000000000001')),
      { name: 'unknown msg_id', request: () => req('DELETE', '/v3/push/1'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'GET /v3/push/quota',
    cite: 'client/PushClient.java:50-52 → bean/push/other/QuotaGetResult.java:11-51 (strict, nested too)',
    success: {
      request: () => req('GET', '/v3/push/quota'),
      shape: {
        code: 'int',
        message: 'string',
        data: {
          xiaomi_quota: {
            system: { total: 'long', used: 'long' },
            operation: { total: 'long', used: 'long' },
          },
          oppo_quota: { system: { total: 'long', used: 'long' }, operation: { total: 'long', used: 'long' } },
          vivo_quota: { system: { total: 'long', used: 'long' }, operation: { total: 'long', used: 'long' } },
        },
      },
      strict: ['code', 'message', 'data'],
    },
    failures: [unauthorized(req('GET', '/v3/push/quota')), rateLimited(req('GET', '/v3/push/quota'))],
  },
  {
    id: 'POST /v3/push/file',
    cite: 'client/PushClient.java:54-56 → PushSendResult (strict)',
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
    id: 'POST /v3/files/{alias|registration_id}',
    cite: 'client/PushClient.java:58-64 → bean/file/FileUploadResult.java:10-13',
    failures: [
      unauthorized(req('POST', '/v3/files/alias', {})),
      unauthorized(req('POST', '/v3/files/registration_id', {})),
    ],
  },
  {
    id: 'GET /v3/files',
    cite: 'client/PushClient.java:66-68 → bean/file/FilesGetResult.java:12-18 (strict)',
    success: {
      request: () => req('GET', '/v3/files'),
      shape: { total_count: 'int', files: 'array' },
      strict: ['total_count', 'files'],
    },
    failures: [unauthorized(req('GET', '/v3/files'))],
  },
  {
    id: 'GET|DELETE /v3/files/{file_id}',
    cite: 'client/PushClient.java:70-76 → bean/file/FileGetResult.java:13-30',
    failures: [
      unauthorized(req('DELETE', '/v3/files/nope')),
      { name: 'unknown file_id', request: () => req('GET', '/v3/files/nope'), status: 400, code: 1003 },
    ],
  },
  {
    id: 'POST|PUT /v3/images/byurls',
    cite: 'client/PushClient.java:78-84 → bean/image/ImageUrlAddResult.java, ImageUrlUpdateResult.java',
    failures: [
      unauthorized(req('POST', '/v3/images/byurls', {})),
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
  {
    id: 'POST|PUT /v3/images/byfiles',
    cite: 'client/PushClient.java:86-92 → bean/image/ImageFileAddResult.java, ImageFileUpdateResult.java',
    failures: [
      unauthorized(req('POST', '/v3/images/byfiles', {})),
      unauthorized(req('PUT', '/v3/images/byfiles/nope', {})),
    ],
  },
  {
    id: 'POST /v3/push/batch/{regid|alias}/single',
    cite: 'client/PushClient.java:94-100 → bean/push/batch/BatchPushSendResult.java:14-17, BatchPushResult.java:10-19',
    success: {
      request: () => req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1)),
      // keyed by cid, each {msg_id} or {error:{code,message}} (an unknown cid is a per-entry 1003)
      shape: { c1: { 'msg_id?': 'string', 'error?': { code: 'int', message: 'string' } } },
    },
    failures: [
      unauthorized(req('POST', '/v3/push/batch/alias/single', BATCH('alias1'))),
      rateLimited(req('POST', '/v3/push/batch/regid/single', BATCH(ANDROID_1))),
    ],
  },
  {
    id: 'POST /v3/push/template',
    cite: 'client/PushClient.java:102-104 → bean/push/TemplatePushSendResult.java:13-28 (strict); errors flat',
    decode: readError(templateError),
    success: {
      request: async ({ app }) => {
        await definedTemplate(app)
        return req('POST', '/v3/push/template', TEMPLATE_PUSH)
      },
      shape: {
        code: 'int',
        message: 'string',
        data: {
          push_list: [{ code: 'int', message: 'string', 'message_id?': 'string', 'trace_id?': 'string' }],
        },
      },
      strict: ['code', 'message', 'data'],
    },
    failures: [
      {
        ...unauthorized(req('POST', '/v3/push/template', TEMPLATE_PUSH)),
        name: 'wrong master secret (flat)',
      },
      {
        name: 'unknown template id (flat)',
        request: () => req('POST', '/v3/push/template', { ...TEMPLATE_PUSH, id: 'nope' }),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'POST /v3/push/template/schedule',
    cite: 'client/PushClient.java:106-108 → bean/push/ScheduleTemplatePushSendResult.java:13-28 (strict); errors flat',
    decode: readError(templateError),
    failures: [
      {
        ...unauthorized(req('POST', '/v3/push/template/schedule', TEMPLATE_SCHEDULE)),
        name: 'wrong master secret (flat)',
      },
      {
        name: 'empty params (flat)',
        request: () => req('POST', '/v3/push/template/schedule', { ...TEMPLATE_SCHEDULE, params: [] }),
        status: 400,
        code: 1003,
      },
    ],
  },
  {
    id: 'POST /v3/grouppush',
    cite: 'client/GroupPushClient.java:13-15 → bean/push/GroupPushSendResult.java:17-26',
    failures: [
      {
        ...unauthorized(req('POST', '/v3/grouppush', PUSH)),
        name: 'unknown group key',
        request: () =>
          req('POST', '/v3/grouppush', PUSH, {
            authorization: `Basic ${Buffer.from(`group-${'g'.repeat(24)}:${'x'.repeat(24)}`).toString('base64')}`,
          }),
      },
    ],
  },
  {
    id: 'GET /v3/devices/{registration_id}',
    cite: 'client/DeviceClient.java:16-18 → bean/device/DeviceGetResult.java:14-27',
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
      faulted(req('GET', `/v3/devices/${ANDROID_1}`, undefined), {
        code: 7030,
        status: 503,
        name: 'system busy',
      }),
    ],
  },
  {
    id: 'POST /v3/devices/{registration_id}',
    cite: 'client/DeviceClient.java:20-26 (setDevice, clearDevice: void)',
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
    id: 'GET /v3/aliases/{alias}?new_format=true',
    cite: 'client/DeviceClient.java:28-30 → bean/device/AliasGetResult.java:15-30 (strict, Data strict)',
    success: {
      request: () => req('GET', '/v3/aliases/alias1?platform=android&new_format=true'),
      shape: { data: [{ registration_id: 'string', platform: 'string', last_online_date: 'string' }] },
      strict: ['data'],
    },
    failures: [
      unauthorized(req('GET', '/v3/aliases/alias1?platform=android&new_format=true')),
      {
        name: 'invalid platform',
        request: () => req('GET', '/v3/aliases/alias1?platform=zz&new_format=true'),
        status: 400,
        code: 7002,
      },
    ],
  },
  {
    id: 'DELETE /v3/aliases/{alias}; POST /v3/aliases/{alias}',
    cite: 'client/DeviceClient.java:32-38 (void)',
    failures: [
      unauthorized(req('DELETE', '/v3/aliases/alias1?platform=android')),
      {
        name: 'unknown registration_ids (illegal_rids ignored)',
        request: () => req('POST', '/v3/aliases/alias1', REMOVE_UNKNOWN),
        status: 400,
        code: 7013,
      },
    ],
  },
  {
    id: 'GET /v3/tags',
    cite: 'client/DeviceClient.java:40-42 → bean/device/TagsGetResult.java:12-15 (strict)',
    success: { request: () => req('GET', '/v3/tags'), shape: { tags: 'strings' }, strict: ['tags'] },
    failures: [unauthorized(req('GET', '/v3/tags')), rateLimited(req('GET', '/v3/tags'))],
  },
  {
    id: 'GET /v3/tags/{tag}/registration_ids/{registration_id}',
    cite: 'client/DeviceClient.java:44-46 → bean/device/TagGetResult.java:10-13 (strict)',
    success: {
      request: () => req('GET', `/v3/tags/tag1/registration_ids/${ANDROID_1}`),
      shape: { result: 'boolean' },
      strict: ['result'],
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
    cite: 'client/DeviceClient.java:48-54 (void)',
    failures: [
      unauthorized(req('POST', '/v3/tags/tag1', ADD_TAG)),
      {
        name: 'unknown registration_ids (illegal_rids ignored)',
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
    cite: 'client/DeviceClient.java:56-58 → bean/device/DeviceStatusGetResult.java:19-37 (@JsonAnySetter)',
    success: {
      request: () => req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }),
      shape: { [ANDROID_1]: { online: 'boolean', 'last_online_time?': 'string' } },
    },
    failures: [unauthorized(req('POST', '/v3/devices/status', { registration_ids: [ANDROID_1] }))],
  },
  {
    id: 'GET /v3/received/detail',
    cite: 'client/ReportClient.java:17-19 → List<bean/report/ReceivedDetailGetResult.java:11-54>',
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
    cite: 'client/ReportClient.java:21-23 → Map<String, bean/report/MessageStatusGetResult.java:11-17> (strict)',
    success: {
      request: ctx => req('POST', '/v3/status/message', { msg_id: ctx.msgId, registration_ids: [ANDROID_1] }),
      shape: { [ANDROID_1]: { status: 'int' } },
    },
    failures: [
      unauthorized(req('POST', '/v3/status/message', { msg_id: '1', registration_ids: [ANDROID_1] })),
    ],
  },
  {
    id: 'GET /v3/messages/detail',
    cite: 'client/ReportClient.java:25-27 → List<bean/report/MessageDetailGetResult.java:12-144>',
    success: {
      request: ctx => req('GET', `/v3/messages/detail?msg_ids=${ctx.msgId}`),
      shape: [
        {
          msg_id: 'string',
          details: {
            notification: { target: 'long', sent: 'long', received: 'long', display: 'long', click: 'long' },
          },
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
    cite: 'client/ReportClient.java:29-31 → bean/report/UserDetailGetResult.java:17-34',
    success: {
      request: () => req('GET', '/v3/users?time_unit=DAY&start=2026-01-01&duration=1'),
      shape: { time_unit: 'string', start: 'string', duration: 'int', items: 'array' },
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
]

checkCalls(client, endpoints)

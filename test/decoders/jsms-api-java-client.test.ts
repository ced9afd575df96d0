import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { basic } from '../helpers.js'
import {
  checkCalls,
  faulted,
  SMS_BATCH,
  SMS_CODE,
  SMS_MESSAGE,
  SMS_SCHEDULE,
  SMS_SCHEDULE_BATCH,
  SMS_TEMPLATE,
  unauthorized,
} from './catalogue.js'
import { type Call, type Failure, readError, req, responseWrapperError, throwing } from './decoder.js'

// jpush/jsms-api-java-client at d9ce9159a74540559ae8001bbbc2b7c69602ff9a (on jiguang-common
// 1.0.8, pom.xml; read at jpush/jiguang-java-client-common 778febd). Paths below are under
// src/main/java/cn/jsms/api/.
//
// Its decoder is jiguang-common's (decoder.ts responseWrapperError): the body of a 400, 401, 403,
// 404, 410 or 429 read nested or flat, a 5xx not read (-1). Successes are bound by Gson
// (BaseResult.fromResponse, @Expose fields, scalars coerced, unknown keys ignored). Signatures are
// the exception: createSign and updateSign post multipart through their own doPostSign
// (common/SMSClient.java:497-592), which sets only the status and body, and throw
// APIRequestException on any non-200 (:394-396, :436-438) without parsing the error: -1 there.
// The client reads no rate headers (JSMS sends none).

const client = throwing({ runtime: 'gson', error: responseWrapperError })

const serverError = (method: 'POST' | 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown): Failure => ({
  ...faulted(req(method, url, body), { code: 50019, status: 500, name: 'server error: body not parsed' }),
  read: -1,
})

const devAuth = { authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET) }

const endpoints: Call[] = [
  {
    id: 'POST /v1/codes',
    cite: 'common/SMSClient.java:95-100 → SendSMSResult.java:9',
    success: { request: () => req('POST', '/v1/codes', SMS_CODE), shape: { msg_id: 'string' } },
    failures: [
      unauthorized(req('POST', '/v1/codes', SMS_CODE)),
      {
        name: 'invalid mobile',
        request: () => req('POST', '/v1/codes', { ...SMS_CODE, mobile: '123' }),
        status: 403,
        code: 50006,
      },
      {
        name: 'invalid temp_id',
        request: () => req('POST', '/v1/codes', { ...SMS_CODE, temp_id: 999 }),
        status: 403,
        code: 50013,
      },
      serverError('POST', '/v1/codes', SMS_CODE),
    ],
  },
  {
    id: 'POST /v1/codes/{msg_id}/valid',
    cite: 'common/SMSClient.java:112-121 → ValidSMSResult.java:10',
    success: {
      request: ctx => req('POST', `/v1/codes/${ctx.codeMsgId}/valid`, { code: '000000' }),
      // a wrong code is a 200 {is_valid:false, error} or 403: either way is_valid is a boolean
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
    cite: 'common/SMSClient.java:133-138 → SendSMSResult',
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
    cite: 'common/SMSClient.java:150-155 → SendSMSResult',
    success: { request: () => req('POST', '/v1/messages', SMS_MESSAGE), shape: { msg_id: 'string' } },
    failures: [
      unauthorized(req('POST', '/v1/messages', SMS_MESSAGE)),
      {
        name: 'invalid temp_id',
        request: () => req('POST', '/v1/messages', { ...SMS_MESSAGE, temp_id: 999 }),
        status: 403,
        code: 50013,
      },
      serverError('POST', '/v1/messages', SMS_MESSAGE),
    ],
  },
  {
    id: 'POST /v1/messages/batch',
    cite: 'common/SMSClient.java:166-170 → common/model/BatchSMSResult.java:12-38',
    success: {
      request: () => req('POST', '/v1/messages/batch', SMS_BATCH),
      shape: {
        success_count: 'int',
        failure_count: 'int',
        failure_recipients: [
          { error_code: 'string', error_message: 'string', mobile: 'string', 'temp_para?': 'object' },
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
    id: 'POST /v1/schedule',
    cite: 'common/SMSClient.java:192-197 → schedule/model/ScheduleResult.java:8',
    success: {
      request: () => req('POST', '/v1/schedule', SMS_SCHEDULE),
      shape: { schedule_id: 'string' },
    },
    failures: [
      unauthorized(req('POST', '/v1/schedule', SMS_SCHEDULE)),
      {
        name: 'invalid temp_id',
        request: () => req('POST', '/v1/schedule', { ...SMS_SCHEDULE, temp_id: 999 }),
        status: 403,
        code: 50013,
      },
    ],
  },
  {
    id: 'PUT /v1/schedule/{schedule_id}',
    cite: 'common/SMSClient.java:209-216 → ScheduleResult',
    success: {
      request: ctx => req('PUT', `/v1/schedule/${ctx.smsScheduleId}`, SMS_SCHEDULE),
      shape: { schedule_id: 'string' },
    },
    failures: [
      unauthorized(req('PUT', '/v1/schedule/zzz', SMS_SCHEDULE)),
      {
        name: 'invalid schedule_id',
        request: () => req('PUT', '/v1/schedule/zzz', SMS_SCHEDULE),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'POST /v1/schedule/batch',
    cite: 'common/SMSClient.java:227-232 → BatchSMSResult',
    success: {
      request: () => req('POST', '/v1/schedule/batch', SMS_SCHEDULE_BATCH),
      shape: {
        schedule_id: 'string',
        success_count: 'int',
        failure_count: 'int',
        failure_recipients: 'array',
      },
    },
    failures: [
      unauthorized(req('POST', '/v1/schedule/batch', SMS_SCHEDULE_BATCH)),
      {
        name: 'recipients empty',
        request: () => req('POST', '/v1/schedule/batch', { ...SMS_SCHEDULE_BATCH, recipients: [] }),
        status: 403,
        code: 50030,
      },
    ],
  },
  {
    id: 'PUT /v1/schedule/batch/{schedule_id}',
    cite: 'common/SMSClient.java:244-250 → BatchSMSResult',
    success: {
      request: ctx => req('PUT', `/v1/schedule/batch/${ctx.smsBatchScheduleId}`, SMS_SCHEDULE_BATCH),
      shape: { schedule_id: 'string', success_count: 'int', failure_count: 'int' },
    },
    failures: [
      unauthorized(req('PUT', '/v1/schedule/batch/zzz', SMS_SCHEDULE_BATCH)),
      {
        name: 'invalid schedule_id',
        request: () => req('PUT', '/v1/schedule/batch/zzz', SMS_SCHEDULE_BATCH),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'GET /v1/schedule/{schedule_id}',
    cite: 'common/SMSClient.java:261-264 → schedule/model/ScheduleSMSResult.java:11-35',
    success: {
      request: ctx => req('GET', `/v1/schedule/${ctx.smsScheduleId}`),
      shape: {
        schedule_id: 'string',
        send_time: 'string',
        temp_id: 'int',
        recipients: [{ 'msg_id?': 'string', mobile: 'string', 'temp_para?': 'object' }],
      },
    },
    failures: [
      unauthorized(req('GET', '/v1/schedule/zzz')),
      {
        name: 'invalid schedule_id',
        request: () => req('GET', '/v1/schedule/zzz'),
        status: 403,
        code: 50028,
      },
    ],
  },
  {
    id: 'DELETE /v1/schedule/{schedule_id}',
    cite: 'common/SMSClient.java:275-277 (the ResponseWrapper)',
    failures: [
      unauthorized(req('DELETE', '/v1/schedule/zzz')),
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
    cite: 'common/SMSClient.java:287-289 → account/AccountBalanceResult.java:7',
    success: {
      request: () => req('GET', '/v1/accounts/dev', undefined, devAuth),
      shape: { dev_balance: 'int' },
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
    cite: 'common/SMSClient.java:299-301 → account/AppBalanceResult.java:8',
    success: { request: () => req('GET', '/v1/accounts/app'), shape: { app_balance: 'int' } },
    failures: [unauthorized(req('GET', '/v1/accounts/app'))],
  },
  {
    id: 'POST /v1/templates',
    cite: 'common/SMSClient.java:314-317 → template/SendTempSMSResult.java:8',
    success: { request: () => req('POST', '/v1/templates', SMS_TEMPLATE), shape: { temp_id: 'int' } },
    failures: [unauthorized(req('POST', '/v1/templates', SMS_TEMPLATE))],
  },
  {
    id: 'PUT /v1/templates/{temp_id}',
    cite: 'common/SMSClient.java:329-333 → SendTempSMSResult',
    failures: [
      unauthorized(req('PUT', '/v1/templates/1', SMS_TEMPLATE)),
      {
        name: 'an approved template cannot be modified',
        request: () => req('PUT', '/v1/templates/1', SMS_TEMPLATE),
        status: 403,
        code: 50047,
      },
      {
        name: 'invalid temp_id',
        request: () => req('PUT', '/v1/templates/999', SMS_TEMPLATE),
        status: 403,
        code: 50013,
      },
    ],
  },
  {
    id: 'GET /v1/templates/{temp_id}',
    cite: 'common/SMSClient.java:344-347 → template/TempSMSResult.java:8-13',
    success: {
      request: ctx => req('GET', `/v1/templates/${ctx.tempId}`),
      shape: {
        temp_id: 'int',
        template: 'string',
        type: 'int',
        ttl: 'int',
        remark: 'string',
        status: 'int',
      },
    },
    failures: [
      unauthorized(req('GET', '/v1/templates/1')),
      {
        name: 'invalid temp_id',
        request: () => req('GET', '/v1/templates/999'),
        status: 403,
        code: 50013,
      },
    ],
  },
  {
    id: 'DELETE /v1/templates/{temp_id}',
    cite: 'common/SMSClient.java:358-360 (the ResponseWrapper)',
    failures: [
      unauthorized(req('DELETE', '/v1/templates/999')),
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
    cite: 'common/SMSClient.java:372-397, 413-439 (doPostSign: the error is not parsed, -1)',
    decode: readError(() => ({ code: -1, message: null })),
    failures: [
      { ...unauthorized(req('POST', '/v1/sign', {})), read: -1 },
      {
        name: 'not multipart (media not supported)',
        request: () => req('POST', '/v1/sign/1', {}),
        status: 415,
        code: 50017,
        read: -1,
      },
    ],
  },
  {
    id: 'GET /v1/sign/{sign_id}',
    cite: 'common/SMSClient.java:467-470 → sign/SignInfoResult.java:7-14',
    success: {
      request: () => req('GET', '/v1/sign/1'),
      shape: { sign_id: 'int', sign: 'string', status: 'int', is_default: 'int' },
    },
    failures: [
      unauthorized(req('GET', '/v1/sign/1')),
      { name: 'invalid sign id', request: () => req('GET', '/v1/sign/999'), status: 403, code: 50102 },
    ],
  },
  {
    id: 'DELETE /v1/sign/{sign_id}',
    cite: 'common/SMSClient.java:454-456 (the ResponseWrapper)',
    failures: [
      unauthorized(req('DELETE', '/v1/sign/999')),
      { name: 'invalid sign id', request: () => req('DELETE', '/v1/sign/999'), status: 403, code: 50102 },
    ],
  },
]

checkCalls(client, endpoints)

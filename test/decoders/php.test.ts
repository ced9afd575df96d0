import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { defaultAuth } from '../helpers.js'
import { admin, checkCalls, jpush, jsms } from './catalogue.js'
import {
  type Answer,
  type Call,
  type Client,
  type Decoder,
  type Endpoint,
  expectRateHeaders,
  isObject,
  parseJson,
} from './decoder.js'

// The decoders of the official PHP clients, read from their sources:
//   jpush/jpush-api-php-client @ d3a9697082171b5320d7839942e71e8a612ff989
//   jpush/jsms-api-php-client  @ 32e827dc00706dbaacab6c4bb1046cf997682ec8

/**
 * src/JPush/Http.php:119-132 `processResp`: json_decode of the body; exactly HTTP 200 returns
 * ['body', 'http_code', 'headers']; anything else whose body is no JSON (json_decode null, an empty
 * body included) throws ServiceNotAvaliable (Exceptions/ServiceNotAvaliable.php:9-13, the raw body as
 * message); else APIRequestException (Exceptions/APIRequestException.php:10-23), which reads
 * body['error']['code'] / ['message'] when `error` is a key, else the flat body['code'] / ['message'],
 * and keeps http_code and the headers (Http.php:96-113: one entry per "Name: value" line, keyed by
 * the name as sent, so the X-Rate-Limit-* capitalisation matters; checked on a real socket below).
 */
const phpJPush: Decoder = answer => {
  const parsed = parseJson(answer.raw)
  const data = parsed.ok ? parsed.value : null
  if (answer.status === 200) return { kind: 'value', value: { body: data, http_code: 200 } }
  if (data === null) return { kind: 'error', type: 'ServiceNotAvaliable', httpCode: answer.status }
  const body = isObject(data) ? data : {}
  const source = isObject(body.error) ? body.error : body
  return {
    kind: 'error',
    type: 'APIRequestException',
    httpCode: answer.status,
    code: source.code,
    message: source.message,
  }
}

/** src/JSMS.php:153-180 `request`: never throws; ['headers', 'body' (json_decode, assoc), 'http_code']. */
const phpJsms: Decoder = answer => {
  const parsed = parseJson(answer.raw)
  return { kind: 'value', value: { body: parsed.ok ? parsed.value : null, http_code: answer.status } }
}

const jpushChecks: Client = {
  runtime: 'json',
  success(outcome, answer, endpoint) {
    expect(outcome, endpoint.id).toEqual({
      kind: 'value',
      value: { body: JSON.parse(answer.raw), http_code: 200 },
    })
    // PushPayload.php:796, 813 read $response['body']['cidlist'] before a batch push.
    if (endpoint.id === jpush.cid.id)
      expect((outcome as { value: { body: { cidlist: string[] } } }).value.body.cidlist).toHaveLength(2)
    if (!endpoint.id.includes('admin')) expectRateHeaders(answer)
  },
  failure(outcome, answer, failure) {
    if (failure.status === 200) {
      // AdminClient.php:39-40: the Admin API's HTTP 200 1013 is a returned body, no exception.
      expect(outcome, failure.name).toMatchObject({
        kind: 'value',
        value: { body: { error: { code: failure.code } } },
      })
      return
    }
    expect(outcome, failure.name).toMatchObject({
      kind: 'error',
      type: 'APIRequestException',
      httpCode: failure.status,
      code: failure.code,
      message: expect.any(String),
    })
    if (failure.code === 2002) expectRateHeaders(answer, 0)
  },
}

const jsmsChecks: Client = {
  runtime: 'json',
  success(outcome, answer, endpoint) {
    // An empty body (the DELETEs) decodes to null: the caller reads http_code 200.
    expect(outcome, endpoint.id).toEqual({
      kind: 'value',
      value: { body: answer.raw === '' ? null : JSON.parse(answer.raw), http_code: 200 },
    })
  },
  failure(outcome, _answer, failure) {
    expect(outcome, failure.name).toMatchObject({
      kind: 'value',
      value: { body: { error: { code: failure.code } }, http_code: failure.status },
    })
  },
}

const php = (endpoint: Endpoint, cite: string, decode: Decoder, url?: Call['url']): Call => ({
  ...endpoint,
  cite,
  decode,
  ...(url ? { url } : {}),
})

const JPUSH_CALLS: Call[] = [
  php(jpush.push, 'src/JPush/PushPayload.php:41-42, 350', phpJPush),
  // makeURL('push') ends in '/', then '/push/validate': a double slash (jpush-api.md §1.2).
  php(jpush.validate, 'src/JPush/PushPayload.php:354-355', phpJPush, u => u.replace('/v3/', '/v3//')),
  php(jpush.cid, 'src/JPush/PushPayload.php:46-47', phpJPush),
  php(jpush.batchRegid, 'src/JPush/PushPayload.php:796-801', phpJPush),
  php(jpush.batchAlias, 'src/JPush/PushPayload.php:813-818', phpJPush),
  php(jpush.groupPush, 'src/JPush/PushPayload.php:41 (is_group)', phpJPush),
  php(jpush.deviceGet, 'src/JPush/DevicePayload.php:18-19', phpJPush),
  php(jpush.devicePost, 'src/JPush/DevicePayload.php:100-101', phpJPush),
  php(jpush.deviceStatus, 'src/JPush/DevicePayload.php:221-222', phpJPush),
  php(jpush.tagList, 'src/JPush/DevicePayload.php:105-106', phpJPush),
  php(jpush.tagHas, 'src/JPush/DevicePayload.php:117-118', phpJPush),
  php(jpush.tagPost, 'src/JPush/DevicePayload.php:159-161', phpJPush),
  php(jpush.tagDelete, 'src/JPush/DevicePayload.php:168-169', phpJPush),
  php(jpush.aliasGet, 'src/JPush/DevicePayload.php:177-196', phpJPush),
  php(jpush.aliasDelete, 'src/JPush/DevicePayload.php:203-204', phpJPush),
  php(jpush.received, 'src/JPush/ReportPayload.php:30-31', phpJPush),
  php(jpush.receivedDetail, 'src/JPush/ReportPayload.php:49-50', phpJPush),
  php(jpush.statusMessage, 'src/JPush/ReportPayload.php:54-63', phpJPush),
  // 'messages/' . '?msg_ids=…' and 'users/?time_unit=…': a trailing slash before the query.
  php(jpush.messages, 'src/JPush/ReportPayload.php:77-78', phpJPush, u =>
    u.replace('/messages?', '/messages/?'),
  ),
  php(jpush.messagesDetail, 'src/JPush/ReportPayload.php:96-97', phpJPush),
  php(jpush.users, 'src/JPush/ReportPayload.php:106-107', phpJPush, u => u.replace('/users?', '/users/?')),
  php(jpush.scheduleCreate, 'src/JPush/SchedulePayload.php:33-34', phpJPush),
  php(jpush.scheduleList, 'src/JPush/SchedulePayload.php:153-154', phpJPush),
  // Client.php:14-19: every base ends in '/' but the schedule one, to which SchedulePayload adds "/".
  php(jpush.scheduleGet, 'src/JPush/SchedulePayload.php:161-162', phpJPush),
  php(jpush.schedulePut, 'src/JPush/SchedulePayload.php:98-100', phpJPush),
  php(jpush.scheduleDelete, 'src/JPush/SchedulePayload.php:169-170', phpJPush),
  php(jpush.scheduleMsgIds, 'src/JPush/SchedulePayload.php:177-178', phpJPush),
  php(admin.create, 'src/JPush/AdminClient.php:28-35', phpJPush),
  php(admin.delete, 'src/JPush/AdminClient.php:39-40', phpJPush),
]

const JSMS_CALLS: Call[] = [
  php(jsms.codes, 'src/JSMS.php:22-29', phpJsms),
  php(jsms.voiceCodes, 'src/JSMS.php:31-43', phpJsms),
  php(jsms.valid, 'src/JSMS.php:45-49', phpJsms),
  php(jsms.messages, 'src/JSMS.php:51-69 (no time)', phpJsms),
  php(jsms.schedule, 'src/JSMS.php:51-69 (with time)', phpJsms),
  php(jsms.messagesBatch, 'src/JSMS.php:71-95 (no time)', phpJsms),
  php(jsms.scheduleBatch, 'src/JSMS.php:71-95 (with time)', phpJsms),
  php(jsms.scheduleGet, 'src/JSMS.php:97-100', phpJsms),
  php(jsms.scheduleDelete, 'src/JSMS.php:102-105', phpJsms),
  php(jsms.accountsApp, 'src/JSMS.php:107-110', phpJsms),
  php(jsms.signCreate, 'src/Sign.php:13-17, 35-53', phpJsms),
  php(jsms.signUpdate, 'src/Sign.php:19-23, 35-53', phpJsms),
  php(jsms.signGet, 'src/Sign.php:25-28', phpJsms),
  php(jsms.signDelete, 'src/Sign.php:30-33', phpJsms),
]

describe('jpush-api-php-client decodes every answer of the calls it makes', () => {
  checkCalls(jpushChecks, JPUSH_CALLS)
})

describe('jsms-api-php-client decodes every answer of the calls it makes', () => {
  checkCalls(jsmsChecks, JSMS_CALLS)
})

describe('the headers as PHP reads them off the wire', () => {
  it('names X-Rate-Limit-* with the vendor capitalisation, "Name: value" lines, on success and 401', async () => {
    // Http.php:101-109 splits the raw header block on ": " and keys by the name as sent.
    const app = await buildApp(testConfig(), { clock: new ManualClock() })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      const raw = (auth: string) =>
        new Promise<{ status: number; names: string[] }>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: '/v3/tags/', headers: { authorization: auth } }, res => {
              res.resume()
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, names: res.rawHeaders.filter((_, i) => i % 2 === 0) }),
              )
            })
            .on('error', reject)
        })
      for (const auth of [defaultAuth, 'Basic d3Jvbmc6d3Jvbmc=']) {
        const { names } = await raw(auth)
        expect(names).toEqual(
          expect.arrayContaining(['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset']),
        )
      }
    } finally {
      await app.close()
    }
  })

  it('a non-200 answer without JSON would be ServiceNotAvaliable, a flat one still APIRequestException', () => {
    const answer = (status: number, raw: string): Answer => ({ status, headers: {}, raw })
    expect(phpJPush(answer(404, ''))).toMatchObject({ type: 'ServiceNotAvaliable' })
    expect(phpJPush(answer(400, '{"code":1003,"message":"x"}'))).toMatchObject({
      type: 'APIRequestException',
      code: 1003,
    })
  })
})

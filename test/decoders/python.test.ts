import { describe, expect, it } from 'vitest'
import { admin, checkCalls, jpush, jsms } from './catalogue.js'
import {
  type Answer,
  type Call,
  type Client,
  type Decoder,
  type Endpoint,
  expectRateHeaders,
  isObject,
  type Outcome,
  parseJson,
} from './decoder.js'

// The decoders of the official Python clients, read from their sources:
//   jpush/jpush-api-python-client @ 12fc3561219dff8ad021182a8da37f08f0ff9c49 (py below)
//   jpush/jsms-api-python-client  @ aff0bcce508de7ea54ceefdbdafc781dc0a6dac2 (jsms.py)

/**
 * jpush/core.py:44-48 `_request`: 401 raises `Unauthorized` without reading the body; any other
 * non-2xx raises `JPushFailure.from_response` (jpush/common.py:59-75), which reads
 * `payload.get('error')`, then `error.get('code')` and `error.get('message')`: only a ValueError
 * (no JSON) is caught, so a flat `{"code","message"}` body (error None) or a JSON array raises
 * AttributeError out of the client. The exception keeps the `response` (its headers: common.py:55).
 */
function failureOf(answer: Answer): Outcome {
  if (answer.status === 401) return { kind: 'error', type: 'Unauthorized' }
  const parsed = parseJson(answer.raw)
  if (!parsed.ok) return { kind: 'error', type: 'JPushFailure', httpCode: answer.status, code: null }
  if (!isObject(parsed.value)) return { kind: 'crash', reason: "AttributeError: 'list' has no 'get'" }
  const error = parsed.value.error
  if (!isObject(error)) return { kind: 'crash', reason: "AttributeError: 'NoneType' has no 'get'" }
  return {
    kind: 'error',
    type: 'JPushFailure',
    httpCode: answer.status,
    code: error.code,
    message: error.message,
  }
}

const is2xx = (a: Answer) => a.status >= 200 && a.status < 300

/** jpush/push/core.py:117-120 `PushResponse`: `response.json()` whatever the body (empty raises). */
const pushResponse: Decoder = answer => {
  if (!is2xx(answer)) return failureOf(answer)
  const parsed = parseJson(answer.raw)
  return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'crash', reason: 'JSONDecodeError' }
}

/**
 * jpush/device/core.py:115-121 (and the same in report/core.py:74-80, schedule/core.py:63-69,
 * core.py:131-137 AdminResponse): an empty body is "success" on 200, else `response.json()`.
 */
const payloadResponse: Decoder = answer => {
  if (!is2xx(answer)) return failureOf(answer)
  if (answer.raw === '') return { kind: 'value', value: answer.status === 200 ? 'success' : null }
  const parsed = parseJson(answer.raw)
  return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'crash', reason: 'JSONDecodeError' }
}

/** jsms.py:98-101 and 117-120: whatever the status, the status code for an empty body, else r.json(). */
const jsmsResponse: Decoder = answer => {
  if (answer.raw === '') return { kind: 'value', value: answer.status }
  const parsed = parseJson(answer.raw)
  return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'crash', reason: 'JSONDecodeError' }
}

const jpushChecks: Client = {
  runtime: 'json',
  success(outcome, answer, endpoint) {
    expect(outcome, endpoint.id).toMatchObject({ kind: 'value' })
    // The one field the client itself reads: cidlist, for batch pushes (push/core.py:85, 96).
    if (endpoint.id === jpush.cid.id)
      expect((outcome as { value: { cidlist: unknown[] } }).value.cidlist).toHaveLength(2)
    if (answer.headers['x-rate-limit-limit'] !== undefined) expectRateHeaders(answer)
  },
  failure(outcome, answer, failure) {
    if (failure.status === 401) {
      expect(outcome, failure.name).toEqual({ kind: 'error', type: 'Unauthorized' })
    } else if (failure.status === 200) {
      // The Admin API's 1010–1015 come with HTTP 200: AdminResponse.payload holds the error.
      expect(outcome, failure.name).toMatchObject({ kind: 'value', value: { error: { code: failure.code } } })
    } else {
      expect(outcome, failure.name).toMatchObject({
        kind: 'error',
        type: 'JPushFailure',
        httpCode: failure.status,
        code: failure.code,
        message: expect.any(String),
      })
    }
    // JPushFailure.response keeps the headers: a 2002 says there is no call left.
    if (failure.code === 2002) expectRateHeaders(answer, 0)
  },
}

const jsmsChecks: Client = {
  runtime: 'json',
  success(outcome, answer, endpoint) {
    // An empty body (the DELETEs) is returned as the status code 200.
    expect(outcome, endpoint.id).toEqual({
      kind: 'value',
      value: answer.raw === '' ? 200 : JSON.parse(answer.raw),
    })
  },
  failure(outcome, _answer, failure) {
    // The client raises nothing: the caller reads error.code from the dict it gets back.
    expect(outcome, failure.name).toMatchObject({ kind: 'value', value: { error: { code: failure.code } } })
  },
}

const py = (endpoint: Endpoint, cite: string, decode: Decoder, url?: Call['url']): Call => ({
  ...endpoint,
  cite,
  decode,
  ...(url ? { url } : {}),
})

const JPUSH_CALLS: Call[] = [
  py(jpush.push, 'jpush/push/core.py:53-55', pushResponse),
  py(jpush.validate, 'jpush/push/core.py:67-70', pushResponse),
  py(jpush.cid, 'jpush/push/core.py:74-81', pushResponse),
  py(jpush.batchRegid, 'jpush/push/core.py:90-92', pushResponse),
  py(jpush.batchAlias, 'jpush/push/core.py:101-103', pushResponse),
  py(jpush.groupPush, 'jpush/core.py:97-104, push/core.py:53', pushResponse),
  py(jpush.deviceGet, 'jpush/device/core.py:32-33', payloadResponse),
  py(jpush.devicePost, 'jpush/device/core.py:39-41', payloadResponse),
  py(jpush.deviceStatus, 'jpush/device/core.py:94-101', payloadResponse),
  py(jpush.tagList, 'jpush/device/core.py:25-26', payloadResponse),
  py(jpush.tagHas, 'jpush/device/core.py:71-72', payloadResponse),
  py(jpush.tagPost, 'jpush/device/core.py:63-65', payloadResponse),
  py(jpush.tagDelete, 'jpush/device/core.py:55-57', payloadResponse),
  py(jpush.aliasGet, 'jpush/device/core.py:86-88', payloadResponse),
  py(jpush.aliasDelete, 'jpush/device/core.py:78-80', payloadResponse),
  py(jpush.received, 'jpush/report/core.py:20-22', payloadResponse),
  py(jpush.receivedDetail, 'jpush/report/core.py:26-28', payloadResponse),
  py(jpush.statusMessage, 'jpush/report/core.py:33-43', payloadResponse),
  py(jpush.messages, 'jpush/report/core.py:47-49', payloadResponse),
  py(jpush.messagesDetail, 'jpush/report/core.py:53-55', payloadResponse),
  py(jpush.users, 'jpush/report/core.py:59-65', payloadResponse),
  py(jpush.scheduleCreate, 'jpush/schedule/core.py:19-21', payloadResponse),
  py(jpush.scheduleList, 'jpush/schedule/core.py:30-32', payloadResponse),
  py(jpush.scheduleGet, 'jpush/schedule/core.py:25-26', payloadResponse),
  py(jpush.schedulePut, 'jpush/schedule/core.py:36-38', payloadResponse),
  py(jpush.scheduleDelete, 'jpush/schedule/core.py:42-43', payloadResponse),
  // get_msg_ids (schedule/core.py:47) reads common.BASE_SCHEDULEURL, which common.py does not
  // define: it raises AttributeError before any request, so nothing of ours reaches it.
  py(admin.create, 'jpush/core.py:110-119', payloadResponse),
  py(admin.delete, 'jpush/core.py:121-124', payloadResponse),
]

const JSMS_CALLS: Call[] = [
  py(jsms.codes, 'jsms.py:13-18', jsmsResponse),
  py(jsms.voiceCodes, 'jsms.py:20-30', jsmsResponse),
  py(jsms.valid, 'jsms.py:32-37', jsmsResponse),
  py(jsms.messages, 'jsms.py:39-50 (no time)', jsmsResponse),
  py(jsms.schedule, 'jsms.py:39-50 (with time)', jsmsResponse),
  py(jsms.scheduleGet, 'jsms.py:56-58', jsmsResponse),
  py(jsms.scheduleDelete, 'jsms.py:63-65', jsmsResponse),
  py(jsms.accountsApp, 'jsms.py:67-69', jsmsResponse),
  py(jsms.signGet, 'jsms.py:71-73', jsmsResponse),
  py(jsms.signDelete, 'jsms.py:75-77', jsmsResponse),
  py(jsms.signCreate, 'jsms.py:79-81, 87-101', jsmsResponse),
  py(jsms.signUpdate, 'jsms.py:83-85, 87-101', jsmsResponse),
]

describe('jpush-api-python-client decodes every answer of the calls it makes', () => {
  checkCalls(jpushChecks, JPUSH_CALLS)
})

describe('jsms-api-python-client decodes every answer of the calls it makes', () => {
  checkCalls(jsmsChecks, JSMS_CALLS)
})

describe('what JPushFailure.from_response cannot read', () => {
  // The two routes that answer flat (push templates and plans: docs/fidelity.md) are never called by
  // this client; a flat body would break it, which is why every route it calls must stay nested.
  it('a flat envelope raises AttributeError out of the client', () => {
    const flat = { status: 400, headers: {}, raw: '{"code":1003,"message":"x"}' }
    expect(pushResponse(flat)).toMatchObject({ kind: 'crash' })
    expect(pushResponse({ ...flat, raw: '{"error":{"code":1003,"message":"x"}}' })).toMatchObject({
      code: 1003,
    })
  })
})

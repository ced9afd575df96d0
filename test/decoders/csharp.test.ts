import { describe, expect } from 'vitest'
import { checkCalls, jpush, jsms } from './catalogue.js'
import {
  type Answer,
  asTextPlain,
  type Call,
  type Client,
  type Decoder,
  type Endpoint,
  expectRateHeaders,
  isObject,
  parseJson,
  RATE_HEADERS,
} from './decoder.js'

// The decoders of the official C# clients, read from their sources:
//   jpush/jpush-api-csharp-client @ dcc1fa0d94260689ff528179f1f4b9fb6f683846
//   jpush/jsms-api-csharp-client  @ 356720060a3852c8c24dc0ef23c829c301351b7b

/**
 * Jiguang.JPush/Model/HttpResponse.cs:12-17 (and Jiguang.JSMS/Model/HttpResponse.cs, the same):
 * every call returns `new HttpResponse(msg.StatusCode, msg.Headers, content)` and throws on no
 * status; `content` is `ReadAsStringAsync()` (decoded by the Content-Type's charset), except the
 * device calls that drop it (DeviceClient.cs:134, 225, 264, 294 pass ""). `msg.Headers` is
 * HttpResponseHeaders: X-Rate-Limit-* are there, Content-Type is not (it is a content header).
 * The caller parses Content with Newtonsoft (JObject.Parse) and reads error.code from it.
 */
const httpResponse =
  (dropsContent = false): Decoder =>
  (answer: Answer) => ({
    kind: 'value',
    value: {
      StatusCode: answer.status,
      Content: dropsContent ? '' : answer.raw,
      Headers: Object.fromEntries(
        RATE_HEADERS.filter(h => answer.headers[h] !== undefined).map(h => [h, answer.headers[h]]),
      ),
    },
  })

/** What `JObject.Parse(response.Content)["error"]["code"]` gives the caller. */
function errorCodeOf(content: string): unknown {
  const parsed = parseJson(content)
  return parsed.ok && isObject(parsed.value) && isObject(parsed.value.error)
    ? parsed.value.error.code
    : undefined
}

type Value = { StatusCode: number; Content: string; Headers: Record<string, string> }

const checks = (v3: boolean): Client => ({
  runtime: 'json',
  success(outcome, answer, endpoint) {
    const { StatusCode, Content } = (outcome as { value: Value }).value
    expect(StatusCode, endpoint.id).toBe(200)
    // A charset ReadAsStringAsync can decode (an unknown one throws); the empty DELETEs name none.
    expect(answer.headers['content-type']).toMatch(/^application\/json(; charset=utf-8)?$/)
    if (Content !== '') expect(parseJson(Content).ok, endpoint.id).toBe(true)
    // JPushClient.cs:223-231: a batch push casts the cid answer to JObject and reads cidlist.
    if (endpoint.id === jpush.cid.id) expect(JSON.parse(Content).cidlist).toHaveLength(2)
    if (v3) expectRateHeaders(answer)
  },
  failure(outcome, answer, failure) {
    const { StatusCode, Content, Headers } = (outcome as { value: Value }).value
    expect(StatusCode, failure.name).toBe(failure.status)
    if (Content !== '') expect(errorCodeOf(Content), failure.name).toBe(failure.code)
    if (v3) {
      expect(Object.keys(Headers), failure.name).toEqual([...RATE_HEADERS])
      if (failure.code === 2002) expectRateHeaders(answer, 0)
    }
  },
})

const cs = (
  endpoint: Endpoint,
  cite: string,
  options: { url?: Call['url']; drops?: boolean } = {},
): Call => ({
  ...endpoint,
  cite,
  decode: httpResponse(options.drops),
  // Every JSON body goes as StringContent(json, Encoding.UTF8): text/plain; charset=utf-8.
  encode: asTextPlain,
  ...(options.url ? { url: options.url } : {}),
})

const JPUSH_CALLS: Call[] = [
  cs(jpush.push, 'Jiguang.JPush/JPushClient.cs:65-74'),
  cs(jpush.validate, 'Jiguang.JPush/JPushClient.cs:100-110'),
  cs(jpush.cid, 'Jiguang.JPush/JPushClient.cs:138-156'),
  cs(jpush.batchRegid, 'Jiguang.JPush/JPushClient.cs:177-181, 221-236'),
  cs(jpush.batchAlias, 'Jiguang.JPush/JPushClient.cs:202-206, 221-236'),
  cs(jpush.deviceGet, 'Jiguang.JPush/DeviceClient.cs:19-28'),
  cs(jpush.devicePost, 'Jiguang.JPush/DeviceClient.cs:44-57'),
  cs(jpush.deviceStatus, 'Jiguang.JPush/DeviceClient.cs:313-330', { url: u => `${u}/` }),
  cs(jpush.aliasGet, 'Jiguang.JPush/DeviceClient.cs:92-105'),
  cs(jpush.aliasDelete, 'Jiguang.JPush/DeviceClient.cs:123-135', { drops: true }),
  cs(jpush.tagList, 'Jiguang.JPush/DeviceClient.cs:153-159'),
  cs(jpush.tagHas, 'Jiguang.JPush/DeviceClient.cs:175-187'),
  cs(jpush.tagPost, 'Jiguang.JPush/DeviceClient.cs:205-226, 244-265', { drops: true }),
  cs(jpush.tagDelete, 'Jiguang.JPush/DeviceClient.cs:283-295', { drops: true }),
  cs(jpush.received, 'Jiguang.JPush/ReportClient.cs:31-41'),
  cs(jpush.receivedDetail, 'Jiguang.JPush/ReportClient.cs:57-67'),
  cs(jpush.statusMessage, 'Jiguang.JPush/ReportClient.cs:84-107'),
  cs(jpush.messages, 'Jiguang.JPush/ReportClient.cs:126-136'),
  cs(jpush.messagesDetail, 'Jiguang.JPush/ReportClient.cs:153-163'),
  cs(jpush.users, 'Jiguang.JPush/ReportClient.cs:180-195'),
  cs(jpush.scheduleCreate, 'Jiguang.JPush/ScheduleClient.cs:39-48'),
  cs(jpush.scheduleList, 'Jiguang.JPush/ScheduleClient.cs:139-148'),
  cs(jpush.scheduleGet, 'Jiguang.JPush/ScheduleClient.cs:169-178'),
  cs(jpush.scheduleMsgIds, 'Jiguang.JPush/ScheduleClient.cs:195-204'),
  cs(jpush.schedulePut, 'Jiguang.JPush/ScheduleClient.cs:217-230'),
  cs(jpush.scheduleDelete, 'Jiguang.JPush/ScheduleClient.cs:335-344'),
]

const JSMS_CALLS: Call[] = [
  cs(jsms.codes, 'Jiguang.JSMS/JSMSClient.cs:48-66'),
  cs(jsms.voiceCodes, 'Jiguang.JSMS/JSMSClient.cs:85-94'),
  cs(jsms.valid, 'Jiguang.JSMS/JSMSClient.cs:123-142'),
  cs(jsms.messages, 'Jiguang.JSMS/JSMSClient.cs:160-169'),
  cs(jsms.messagesBatch, 'Jiguang.JSMS/JSMSClient.cs:186-229'),
  cs(jsms.schedule, 'Jiguang.JSMS/JSMSClient.cs:246-261'),
  cs(jsms.scheduleBatch, 'Jiguang.JSMS/JSMSClient.cs:279-322'),
  cs(jsms.schedulePut, 'Jiguang.JSMS/JSMSClient.cs:341-350'),
  cs(jsms.scheduleBatchPut, 'Jiguang.JSMS/JSMSClient.cs:369-407'),
  cs(jsms.scheduleGet, 'Jiguang.JSMS/JSMSClient.cs:426-434'),
  cs(jsms.scheduleDelete, 'Jiguang.JSMS/JSMSClient.cs:451-459'),
  cs(jsms.accountsDev, 'Jiguang.JSMS/JSMSClient.cs:476-496'),
  cs(jsms.accountsApp, 'Jiguang.JSMS/JSMSClient.cs:514-519'),
  cs(jsms.templateCreate, 'Jiguang.JSMS/JSMSClient.cs:535-541'),
  cs(jsms.templatePut, 'Jiguang.JSMS/JSMSClient.cs:558-567'),
  cs(jsms.templateGet, 'Jiguang.JSMS/JSMSClient.cs:584-589'),
  cs(jsms.templateDelete, 'Jiguang.JSMS/JSMSClient.cs:605-610'),
  cs(jsms.signCreate, 'Jiguang.JSMS/JSMSClient.cs:630-640 (SignModel.ToForm: multipart)'),
  cs(jsms.signUpdate, 'Jiguang.JSMS/JSMSClient.cs:660-670'),
  cs(jsms.signGet, 'Jiguang.JSMS/JSMSClient.cs:689-696'),
  cs(jsms.signDelete, 'Jiguang.JSMS/JSMSClient.cs:714-721'),
]

describe('jpush-api-csharp-client: every answer of the calls it makes, as HttpResponse', () => {
  checkCalls(checks(true), JPUSH_CALLS)
})

describe('jsms-api-csharp-client: every answer of the calls it makes, as HttpResponse', () => {
  checkCalls(checks(false), JSMS_CALLS)
})

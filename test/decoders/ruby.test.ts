import { describe, expect, it } from 'vitest'
import { checkCalls, jpush } from './catalogue.js'
import {
  type Answer,
  type Call,
  type Client,
  type Decoder,
  type Endpoint,
  isObject,
  type Outcome,
  parseJson,
} from './decoder.js'

// The decoder of the official Ruby client, read from its source:
//   jpush/jpush-api-ruby-client @ 47bb1442624651e175004a458991db8504ea10e8

/**
 * lib/jpush/http/response.rb:7-30: `JSON.parse` of every body, success included (an empty or
 * non-JSON body raises JPushResponseError(http_code, http_code, body), lines 15-20); a non-2xx
 * (not Net::HTTPSuccess, line 10) raises JPushResponseError with body['error']['code'] / ['message']
 * when `error` is a key, else the flat body['code'] / ['message'] (lines 22-29); a JSON array there
 * has no `has_key?` (NoMethodError). Headers are not kept: `heades` (line 5) is never set.
 */
const rubyResponse: Decoder = (answer: Answer): Outcome => {
  const parsed = parseJson(answer.raw)
  if (!parsed.ok)
    return { kind: 'error', type: 'JPushResponseError', httpCode: answer.status, code: answer.status }
  if (answer.status >= 200 && answer.status < 300) return { kind: 'value', value: parsed.value }
  if (!isObject(parsed.value)) return { kind: 'crash', reason: 'NoMethodError: has_key? for Array' }
  const source = isObject(parsed.value.error) ? parsed.value.error : parsed.value
  return {
    kind: 'error',
    type: 'JPushResponseError',
    httpCode: answer.status,
    code: source.code,
    message: source.message,
  }
}

const checks: Client = {
  runtime: 'json',
  success(outcome, answer, endpoint) {
    // Every success must be JSON, `{}` included: an empty 200 would raise (jpush-api.md §9).
    expect(outcome, endpoint.id).toEqual({ kind: 'value', value: JSON.parse(answer.raw) })
    // pusher.rb:21, 44, 60 read body['cidlist'] (a cid is fetched before every push).
    if (endpoint.id === jpush.cid.id)
      expect((outcome as { value: { cidlist: string[] } }).value.cidlist).toHaveLength(2)
  },
  failure(outcome, _answer, failure) {
    expect(outcome, failure.name).toMatchObject({
      kind: 'error',
      type: 'JPushResponseError',
      httpCode: failure.status,
      code: failure.code,
      message: expect.any(String),
    })
  },
}

// report.rb:88-90 ends its base in '/', and most calls add '/received'…: a double slash.
const doubleSlash = (u: string) => u.replace('/v3/', '/v3//')
// schedules.rb:48-50 and device.rb's Tag base end in '/': the list is GET /v3/schedules/?page=1.
const trailingSlash = (u: string) => u.replace('/v3/schedules?', '/v3/schedules/?')

const rb = (endpoint: Endpoint, cite: string, url?: Call['url']): Call => ({
  ...endpoint,
  cite,
  decode: rubyResponse,
  ...(url ? { url } : {}),
})

const CALLS: Call[] = [
  rb(jpush.push, 'lib/jpush/pusher.rb:18-25, 73-77'),
  rb(jpush.validate, 'lib/jpush/pusher.rb:11-14'),
  rb(jpush.cid, 'lib/jpush/pusher.rb:30-37'),
  rb(jpush.batchRegid, 'lib/jpush/pusher.rb:42-53'),
  rb(jpush.batchAlias, 'lib/jpush/pusher.rb:58-69'),
  rb(jpush.deviceGet, 'lib/jpush/device.rb:9-12'),
  rb(jpush.devicePost, 'lib/jpush/device.rb:16-34'),
  rb(jpush.deviceStatus, 'lib/jpush/device.rb:63-68'),
  rb(jpush.tagList, 'lib/jpush/device.rb:83-86'),
  rb(jpush.tagHas, 'lib/jpush/device.rb:90-93'),
  rb(jpush.tagPost, 'lib/jpush/device.rb:97-105'),
  rb(jpush.tagDelete, 'lib/jpush/device.rb:118-122'),
  rb(jpush.aliasGet, 'lib/jpush/device.rb:137-141'),
  rb(jpush.aliasDelete, 'lib/jpush/device.rb:145-149'),
  rb(jpush.received, 'lib/jpush/report.rb:13-20', doubleSlash),
  rb(jpush.receivedDetail, 'lib/jpush/report.rb:25-32', doubleSlash),
  rb(jpush.statusMessage, 'lib/jpush/report.rb:38-47 (msg_id.to_i: a number)'),
  rb(jpush.messages, 'lib/jpush/report.rb:51-58', doubleSlash),
  rb(jpush.messagesDetail, 'lib/jpush/report.rb:63-70', doubleSlash),
  rb(jpush.users, 'lib/jpush/report.rb:74-84', doubleSlash),
  rb(jpush.scheduleCreate, 'lib/jpush/schedules.rb:15-19'),
  rb(jpush.scheduleList, 'lib/jpush/schedules.rb:23-25', trailingSlash),
  rb(jpush.scheduleGet, 'lib/jpush/schedules.rb:29-31'),
  rb(jpush.schedulePut, 'lib/jpush/schedules.rb:35-38'),
  rb(jpush.scheduleDelete, 'lib/jpush/schedules.rb:42-44'),
]

describe('jpush-api-ruby-client decodes every answer of the calls it makes', () => {
  checkCalls(checks, CALLS)

  it('an empty success body is an error to it, a flat failure is read', () => {
    expect(rubyResponse({ status: 200, headers: {}, raw: '' })).toMatchObject({ kind: 'error', code: 200 })
    expect(rubyResponse({ status: 400, headers: {}, raw: '{"code":1003,"message":"x"}' })).toMatchObject({
      code: 1003,
    })
  })
})

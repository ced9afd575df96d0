import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, IOS_1, pushBody, received } from './helpers.js'

// A JPush msg_id has 17 digits (181…), more than a double keeps (2^53 has 16). The Java client
// (Gson writes a long as a bare number) and the Ruby one (JSON.generate of an Integer) send
// `options.override_msg_id` and the `msg_id` of POST /v3/status/message as JSON numbers: read as
// doubles, the override named a message that never was (1003) and the status query answered 3
// ("not a target"). Those two fields are read exactly; every other number keeps its meaning.

/** Pushes until a msg_id comes back that a double cannot hold (odd ids at this size never fit). */
async function pushWithUnroundableId(app: Awaited<ReturnType<typeof createTestApp>>['app']): Promise<string> {
  for (;;) {
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { registration_id: [ANDROID_1] } }))
    expect(res.status).toBe(200)
    if (String(Number(res.body.msg_id)) !== res.body.msg_id) return res.body.msg_id
  }
}

// The bodies as each client writes them, with the id spliced in as a bare number.
const javaPush = (id: string) =>
  `{"platform":"all","audience":{"registration_id":["${ANDROID_1}"]},` +
  `"notification":{"alert":"again","android":{"alert":"again","extras":{}},"ai_opportunity":false},` +
  `"options":{"sendno":1234567,"apns_production":false,"classification":0,"override_msg_id":${id}}}`
const rubyPush = (id: string) =>
  `{"platform":"all","audience":{"registration_id":["${ANDROID_1}"]},"notification":{"alert":"again"},` +
  `"options":{"override_msg_id":${id},"apns_production":false}}`
const javaStatus = (id: string) =>
  `{"msg_id":${id},"registration_ids":["${ANDROID_1}","${IOS_1}"],"date":null}`
const rubyStatus = (id: string) => `{"msg_id":${id},"registration_ids":["${ANDROID_1}","${IOS_1}"]}`

describe('17-digit msg_ids sent as JSON numbers', () => {
  it.each([
    ['Java', javaPush],
    ['Ruby', rubyPush],
  ])('%s: options.override_msg_id names the exact message', async (_client, body) => {
    const { app } = await createTestApp()
    const id = await pushWithUnroundableId(app)
    for (const path of ['/v3/push/validate', '/v3/push']) {
      const res = await call(app, 'POST', path, body(id))
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 200,
        error: undefined,
      })
    }
    expect((await received(app, `registration_id=${ANDROID_1}`)).length).toBeGreaterThan(1)
    // A number close to a real id names nothing: exact, not merely close.
    const near = (BigInt(id) + 1001n).toString()
    expect((await call(app, 'POST', '/v3/push', body(near))).body.error).toEqual({
      code: 1003,
      message: "'override_msg_id' value is invalid.",
    })
  })

  it.each([
    ['Java', javaStatus],
    ['Ruby', rubyStatus],
  ])('%s: status/message answers for the exact message', async (_client, body) => {
    const { app } = await createTestApp()
    const id = await pushWithUnroundableId(app)
    const res = await call(app, 'POST', '/v3/status/message', body(id))
    expect(res.status).toBe(200)
    // Delivered to the android device it targeted; the iOS one was not a target of it.
    expect(res.body).toEqual({ [ANDROID_1]: { status: 0 }, [IOS_1]: { status: 3 } })
  })

  it('reads only those two fields exactly: other big numbers are refused as before', async () => {
    const { app } = await createTestApp()
    const id = await pushWithUnroundableId(app)
    const big = '18100000000000001999'
    // In the same body as an exact override: the override is read, the others are not.
    const withOverride = (options: string) =>
      `{"platform":"all","audience":"all","notification":{"alert":"x"},"options":{"override_msg_id":${id},${options}}}`
    // Beside the exact override, ordinary numbers mean what they did.
    const ok = await call(app, 'POST', '/v3/push', withOverride('"sendno":7,"time_to_live":60'))
    expect({ status: ok.status, sendno: ok.body.sendno }).toEqual({ status: 200, sendno: '7' })
    const refusals: Array<[string, string, number, string]> = [
      ['/v3/push', withOverride(`"sendno":${big}`), 1003, "'sendno' value is invalid."],
      ['/v3/push', withOverride(`"time_to_live":${big}`), 1003, "'time_to_live' value is invalid."],
      ['/v3/push', withOverride(`"big_push_duration":${big}`), 1003, "'big_push_duration' value is invalid."],
      [
        '/v3/push',
        `{"platform":"all","audience":"all","notification":{"alert":"x"},"sms_message":{"delay_time":0,"temp_id":${big}}}`,
        1003,
        'sms_message.temp_id is invalid',
      ],
      ['/v1/messages', `{"mobile":"13800138000","temp_id":${big},"temp_para":{}}`, 50013, 'invalid temp_id'],
      ['/v1/codes', `{"mobile":"13800138000","temp_id":1,"ttl":${big}}`, 50041, 'invalid ttl value'],
    ]
    for (const [path, body, code, message] of refusals) {
      const res = await call(app, 'POST', path, body)
      expect({ path, body: res.body }).toEqual({ path, body: { error: { code, message } } })
    }
    // A prototype key on the way to the field is removed as before, on this path too.
    const poisoned = `{"platform":"all","audience":"all","notification":{"alert":"x"},"options":{"__proto__":{"override_msg_id":${id}}}}`
    expect((await call(app, 'POST', '/v3/push/validate', poisoned)).status).toBe(200)
    expect(({} as Record<string, unknown>).override_msg_id).toBeUndefined()
  })
})

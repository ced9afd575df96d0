import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp } from '../helpers.js'
import { ANDROID_1, IOS_1 } from '../push/helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from '../scheduler/receiver.js'
import { advance } from '../sms/schedule-helpers.js'
import { MOBILE, OTHER_MOBILE } from '../sms/support.js'

// The filters every list of the control plane shares (issue 12 §6): declared once, applied in
// SQL, newest first, one answer shape; and every refusal, naming the parameter.

const LISTS = [
  '/_sandbox/sms/messages',
  '/_sandbox/push/messages',
  '/_sandbox/callbacks',
  '/_sandbox/sms/reports',
  '/_sandbox/sms/replies',
  '/_sandbox/events',
]
const invalid = (why: string) => ({ error: { code: 90020, message: why } })
const LIMIT = '"limit": must be a whole number from 1 to 1000'
const WAIT = '"wait": must be milliseconds from 0 to 30000'
const AFTER = '"after": must be a seq (a whole number, 0 or more)'
const time = (name: string) => `"${name}": must be an ISO-8601 time or epoch milliseconds`

const REFUSALS: Array<[string, string | RegExp]> = [
  ...LISTS.flatMap(
    (list): Array<[string, string]> => [
      [`${list}?limit=0`, LIMIT],
      [`${list}?limit=1001`, LIMIT],
      [`${list}?limit=ten`, LIMIT],
      [`${list}?limit=-5`, LIMIT],
      [`${list}?limit=1.5`, LIMIT],
      [`${list}?wait=30001`, WAIT],
      [`${list}?wait=soon`, WAIT],
      [`${list}?after=-1`, AFTER],
      [`${list}?after=41x`, AFTER],
      [`${list}?since=yesterday`, time('since')],
      [`${list}?until=12:00`, time('until')],
    ],
  ),
  ['/_sandbox/sms/codes/latest?wait=30001', WAIT],
  ['/_sandbox/sms/codes/latest?after=x', AFTER],
  ['/_sandbox/sms/codes/latest?since=x', time('since')],
  ['/_sandbox/sms/messages?kind=sms', '"kind": must be one of code, voice_code, template'],
  ['/_sandbox/sms/codes/latest?kind=template', '"kind": must be one of code, voice_code'],
  [
    '/_sandbox/callbacks?kind=REPORT',
    '"kind": must be one of SMS_REPORT, SMS_REPLY, SMS_TEMPLATE, SMS_SIGN, JPUSH_DELIVERED, JPUSH_CLICKED, JPUSH_NOT_DELIVERED, JPUSH_PUSH_SUCCEEDED',
  ],
  ['/_sandbox/callbacks?state=done', '"state": must be one of pending, sending, delivered, failed'],
  ['/_sandbox/events?kind=sms', /^"kind": must be one of sms\.sent, sms\.report, /],
  [
    '/_sandbox/sms/messages?mobil=13800138000',
    '"mobil": is not a parameter of this route (it takes since, until, after, limit, wait, mobile, msg_id, kind)',
  ],
  ['/_sandbox/push/messages?mobile=13800138000', /^"mobile": is not a parameter/],
  ['/_sandbox/sms/codes/latest?limit=5', /^"limit": is not a parameter/],
  ['/_sandbox/sms/replies?msg_id=1', /^"msg_id": is not a parameter/],
]

describe('refusals', () => {
  it.each(REFUSALS)('GET %s → 400', async (url, why) => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', url)
    expect(res.status).toBe(400)
    if (typeof why === 'string') expect(res.body).toEqual(invalid(why))
    else {
      expect(res.body.error.code).toBe(90020)
      expect(res.body.error.message).toMatch(why)
    }
  })

  it.each(LISTS)(
    '%s takes limit 1 and 1000, wait 0 and 30000 (held only when nothing is there)',
    async list => {
      const { app } = await createTestApp()
      for (const q of ['limit=1', 'limit=1000', 'wait=0', 'after=0', 'since=0', 'until=2030-01-01'])
        expect((await call(app, 'GET', `${list}?${q}`)).status, q).toBe(200)
    },
  )
})

const notice = (mobile: string, order = 'F1') => ({ mobile, temp_id: 2, temp_para: { order, days: '1' } })
const seqs = (items: Array<{ seq: number }>) => items.map(i => i.seq)
const get = async (app: SandboxApp, url: string, auth?: Record<string, string>) => {
  const res = await call(app, 'GET', url, undefined, auth)
  expect(res.status, res.raw).toBe(200)
  return res.body
}

describe('GET /_sandbox/sms/messages and codes/latest', () => {
  it('filter by kind, mobile, msg_id, since/until (ISO-8601 or epoch ms) and after, newest first', async () => {
    const { app, clock } = await createTestApp()
    const start = clock.now()
    // Less than REPORT_DELAY_MS in all: no report arrives (and takes a seq) meanwhile. Each request
    // takes the seq after its message's: its entry in the journal (request.completed).
    const code = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }) // seq 1
    clock.advance(500)
    const voice = await call(app, 'POST', '/v1/voice_codes', { mobile: OTHER_MOBILE, code: '4321' }) // 3
    clock.advance(500)
    await call(app, 'POST', '/v1/messages', notice(MOBILE)) // 5
    await call(app, 'POST', '/v1/messages', notice(OTHER_MOBILE)) // 7
    const list = (q: string) => get(app, `/_sandbox/sms/messages?${q}`).then(b => seqs(b.messages))

    expect(await list('')).toEqual([7, 5, 3, 1])
    expect(await list('kind=code')).toEqual([1])
    expect(await list('kind=template')).toEqual([7, 5])
    expect(await list(`mobile=%2B86${MOBILE}`)).toEqual([5, 1])
    expect(await list(`mobile=${MOBILE}&kind=template`)).toEqual([5])
    expect(await list(`msg_id=${voice.body.msg_id}`)).toEqual([3])
    expect(await list(`since=${start + 500}`)).toEqual([7, 5, 3])
    expect(await list(`until=${new Date(start + 500).toISOString()}`)).toEqual([1])
    expect(await list(`since=${new Date(start).toISOString()}&until=${start + 1000}`)).toEqual([3, 1])
    expect(await list('limit=2')).toEqual([7, 5])
    // after: the `limit` right after it, still newest first, so following next_after misses nothing.
    expect(await list('after=1&limit=2')).toEqual([5, 3])
    expect(await get(app, '/_sandbox/sms/messages?after=5')).toMatchObject({ next_after: 7 })
    expect(await get(app, '/_sandbox/sms/messages?after=7')).toEqual({ messages: [], next_after: 7 })

    const latest = (q: string) => get(app, `/_sandbox/sms/codes/latest?${q}`)
    expect(await latest(`mobile=${MOBILE}`)).toMatchObject({ seq: 1, msg_id: code.body.msg_id, kind: 'code' })
    expect(await latest('kind=voice_code')).toMatchObject({ seq: 3, code: '4321' })
    expect(await latest(`since=${start + 1}`)).toMatchObject({ seq: 3 })
    expect((await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}&after=1`)).status).toBe(404)
  })
})

describe('GET /_sandbox/push/messages', () => {
  it('finds a push by the alias the device had when it got it, after the alias moved on', async () => {
    const { app } = await createTestApp()
    const push = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: { alias: ['alias1'] },
      notification: { alert: 'to alias1' },
    })
    await call(app, 'POST', `/v3/devices/${ANDROID_1}`, { alias: '' })
    await call(app, 'POST', `/v3/devices/${IOS_1}`, { alias: 'renamed' })
    const byAlias = await get(app, '/_sandbox/push/messages?alias=alias1')
    expect(byAlias.messages.map((m: { registration_id: string }) => m.registration_id).sort()).toEqual(
      [ANDROID_1, IOS_1].sort(),
    )
    expect(byAlias.messages.every((m: { alias: string; msg_id: string }) => m.alias === 'alias1')).toBe(true)
    expect((await get(app, '/_sandbox/push/messages?alias=renamed')).messages).toEqual([])
    const one = await get(app, `/_sandbox/push/messages?registration_id=${IOS_1}&msg_id=${push.body.msg_id}`)
    expect(one.messages).toEqual([
      expect.objectContaining({
        registration_id: IOS_1,
        platform: 'ios',
        alias: 'alias1',
        notification: { alert: 'to alias1' },
      }),
    ])
    expect(one.next_after).toBe(one.messages[0].seq)
  })
})

describe('GET /_sandbox/callbacks, /sms/reports, /sms/replies', () => {
  it('filter callbacks by kind, state, mobile and msg_id; reports once arrived; replies by mobile', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url) })
    const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
    const sent = await call(app, 'POST', '/v1/messages', notice(MOBILE), auth)
    await call(app, 'POST', '/v1/messages', notice(OTHER_MOBILE), auth)
    await call(app, 'POST', '/_sandbox/sms/replies', { mobile: OTHER_MOBILE, content: 'ok' }, auth)
    // Not arrived yet: no report is listed before its receive time.
    expect((await get(app, '/_sandbox/sms/reports', auth)).reports).toEqual([])
    await advance(app, 2000, auth)

    const reports = await get(app, `/_sandbox/sms/reports?mobile=${MOBILE}`, auth)
    expect(reports.reports).toEqual([
      {
        seq: expect.any(Number),
        msg_id: sent.body.msg_id,
        mobile: MOBILE,
        status: 4001,
        receive_time: expect.any(String),
      },
    ])
    expect((await get(app, `/_sandbox/sms/reports?msg_id=${sent.body.msg_id}`, auth)).reports).toHaveLength(1)
    const cb = (q: string) =>
      get(app, `/_sandbox/callbacks?${q}`, auth).then(b => b.callbacks.map((c: { type: string }) => c.type))
    expect(await cb('')).toEqual(['SMS_REPORT', 'SMS_REPORT', 'SMS_REPLY'])
    expect(await cb('kind=SMS_REPLY')).toEqual(['SMS_REPLY'])
    expect(await cb(`mobile=${OTHER_MOBILE}`)).toEqual(['SMS_REPORT', 'SMS_REPLY'])
    expect(await cb(`msg_id=${sent.body.msg_id}`)).toEqual(['SMS_REPORT'])
    expect(await cb('state=delivered')).toHaveLength(3)
    expect(await cb('state=failed')).toEqual([])
    const replies = await get(app, `/_sandbox/sms/replies?mobile=${OTHER_MOBILE}`, auth)
    expect(replies.replies).toEqual([
      { seq: expect.any(Number), mobile: OTHER_MOBILE, content: 'ok', reply_time: expect.any(String) },
    ])
    expect((await get(app, `/_sandbox/sms/replies?mobile=${MOBILE}`, auth)).replies).toEqual([])
  })
})

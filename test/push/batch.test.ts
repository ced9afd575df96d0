import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { APP_KEY, basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, ANDROID_2, IOS_1, rate, received } from './helpers.js'

// POST /v3/push/batch/{regid|alias}/single (jpush-api.md §5.14): each entry is its own push.

const REGID = '/v3/push/batch/regid/single'
const ALIAS = '/v3/push/batch/alias/single'

async function cids(app: SandboxApp, count: number, headers: Record<string, string> = {}): Promise<string[]> {
  return (await call(app, 'GET', `/v3/push/cid?count=${count}`, undefined, headers)).body.cidlist
}

const entry = (target: string, extra: Record<string, unknown> = {}) => ({
  platform: 'all',
  target,
  notification: { alert: `hi ${target}` },
  ...extra,
})

describe('batch single push', () => {
  it('by registration_id: one push per cid, each answered with its own msg_id, delivered on its own', async () => {
    const { app } = await createTestApp()
    const [a, b] = await cids(app, 2)
    const res = await call(app, 'POST', REGID, {
      pushlist: { [a!]: entry(ANDROID_1), [b!]: entry(IOS_1, { options: { time_to_live: 60 } }) },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      [a!]: { msg_id: expect.stringMatching(/^\d{17}$/) },
      [b!]: { msg_id: expect.stringMatching(/^\d{17}$/) },
    })
    expect(res.body[a!].msg_id).not.toBe(res.body[b!].msg_id)
    // The push rate window counts the call once, with its headers.
    expect(rate(res.headers)).toEqual(['600', '598', '60'])
    const gotA = await received(app, `msg_id=${res.body[a!].msg_id}`)
    expect(gotA.map(m => [m.registration_id, (m.notification as { alert: string }).alert])).toEqual([
      [ANDROID_1, `hi ${ANDROID_1}`],
    ])
    const gotB = await received(app, `msg_id=${res.body[b!].msg_id}`)
    expect(gotB.map(m => m.registration_id)).toEqual([IOS_1])
    // Each is a push of its own in the statistics.
    const stats = await call(app, 'GET', `/v3/received?msg_ids=${res.body[a!].msg_id}`)
    expect(stats.body).toMatchObject([
      { msg_id: res.body[a!].msg_id, android_received: 1, ios_apns_sent: null },
    ])
  })

  it('by alias: every device of the alias; an alias with no device is 1011 with its msg_id', async () => {
    const { app } = await createTestApp()
    const [a, b] = await cids(app, 2)
    const res = await call(app, 'POST', ALIAS, {
      pushlist: { [a!]: entry('alias1'), [b!]: entry('nobody_here') },
    })
    expect(res.status).toBe(200)
    const got = await received(app, `msg_id=${res.body[a!].msg_id}`)
    expect(got.map(m => m.registration_id).sort()).toEqual([ANDROID_1, IOS_1].sort())
    expect(res.body[b!]).toEqual({
      msg_id: expect.stringMatching(/^\d{17}$/),
      error: {
        code: 1011,
        message: 'cannot find user by this audience or has been inactive for more than 255 days',
      },
    })
  })

  it('an entry that fails is its own error; the others are pushed', async () => {
    const { app } = await createTestApp()
    const [ok, noPlatform, noTarget, badTarget, unknownRid, noContent, bare, wrongCid] = await cids(
      app,
      7,
    ).then(list => [...list, `${newKey()}-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b`])
    const res = await call(app, 'POST', REGID, {
      pushlist: {
        [ok!]: entry(ANDROID_2),
        [noPlatform!]: { target: ANDROID_1, notification: { alert: 'x' } },
        [noTarget!]: { platform: 'all', notification: { alert: 'x' } },
        [badTarget!]: entry(ANDROID_1, { target: ['not', 'a', 'string'] }),
        [unknownRid!]: entry('1a00000000000000bad'),
        [noContent!]: { platform: 'all', target: ANDROID_1 },
        // ruby's SinglePushPayload can send a bare string: not an object, as on /v3/push.
        [bare!]: { platform: 'all', target: ANDROID_1, notification: 'hello' },
        [wrongCid!]: entry(ANDROID_1),
      },
    })
    expect(res.status).toBe(200)
    expect(res.body[ok!]).toEqual({ msg_id: expect.stringMatching(/^\d{17}$/) })
    expect(res.body[noPlatform!]).toEqual({ error: { code: 1002, message: 'Missing parameter: platform' } })
    expect(res.body[noTarget!]).toEqual({ error: { code: 1002, message: 'Missing parameter: target' } })
    expect(res.body[badTarget!]).toEqual({ error: { code: 1003, message: 'target is invalid' } })
    expect(res.body[unknownRid!]).toEqual({
      error: {
        code: 1003,
        message: 'The registration_id 1a00000000000000bad is invalid!',
        illegal_rids: ['1a00000000000000bad'],
      },
    })
    expect(res.body[noContent!].error.code).toBe(1002)
    expect(res.body[bare!].error.code).toBe(1003)
    expect(res.body[wrongCid!]).toEqual({ error: { code: 1003, message: 'cid is invalid' } })
    // Only the good one reached a device.
    expect(await received(app, `registration_id=${ANDROID_1}`)).toEqual([])
    expect(await received(app, `registration_id=${ANDROID_2}`)).toHaveLength(1)
  })

  it('a cid already pushed answers its first msg_id and pushes nothing again', async () => {
    const { app } = await createTestApp()
    const [a] = await cids(app, 1)
    const first = await call(app, 'POST', REGID, { pushlist: { [a!]: entry(ANDROID_1) } })
    const again = await call(app, 'POST', REGID, { pushlist: { [a!]: entry(ANDROID_1) } })
    expect(again.body).toEqual(first.body)
    expect(await received(app, `registration_id=${ANDROID_1}`)).toHaveLength(1)
  })

  it('what is wrong with the pushlist itself is the request error: 1002, 1003', async () => {
    const { app } = await createTestApp()
    const cases: Array<[unknown, number, string]> = [
      [undefined, 1002, 'Missing parameter: pushlist'],
      [{}, 1002, 'Missing parameter: pushlist'],
      [{ pushlist: [entry(ANDROID_1)] }, 1003, 'pushlist must be an object keyed by cid'],
      [{ pushlist: {} }, 1003, 'pushlist is empty'],
    ]
    for (const [body, code, message] of cases) {
      const res = await call(app, 'POST', ALIAS, body)
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, { error: { code, message } }])
    }
    const many = Object.fromEntries(
      Array.from({ length: 1001 }, (_, i) => [
        `${APP_KEY}-${String(i).padStart(8, '0')}-0000-0000-0000-000000000000`,
        {},
      ]),
    )
    const tooMany = await call(app, 'POST', REGID, { pushlist: many })
    expect(tooMany.body).toEqual({ error: { code: 1003, message: 'pushlist has more than 1000 entries' } })
    const notJson = await call(app, 'POST', REGID, '{"pushlist":')
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 1003])
  })

  it('takes up to 1000 entries in one call', async () => {
    const { app } = await createTestApp()
    const list = await cids(app, 1000)
    const pushlist = Object.fromEntries(list.map((cid, i) => [cid, entry(i % 2 ? ANDROID_1 : IOS_1)]))
    const res = await call(app, 'POST', REGID, { pushlist })
    expect(res.status).toBe(200)
    expect(Object.values(res.body).every(v => /^\d{17}$/.test((v as { msg_id: string }).msg_id))).toBe(true)
    expect(await received(app, `registration_id=${IOS_1}&limit=1000`)).toHaveLength(500)
  })

  it('takes a body over the 1 MiB of other routes (up to 8 MiB)', async () => {
    const { app } = await createTestApp()
    const list = await cids(app, 400)
    // Unknown keys pass (java and php add their own): 5 KB of them per entry, 2 MB in all.
    const pushlist = Object.fromEntries(list.map(cid => [cid, entry(ANDROID_1, { pad: 'x'.repeat(5000) })]))
    const res = await call(app, 'POST', REGID, { pushlist })
    expect([res.status, Object.keys(res.body).length]).toEqual([200, 400])
  })

  it('auth, method and isolation: 1004, 405 1001, another app sees nothing', async () => {
    const { app } = await createTestApp()
    const wrong = await call(
      app,
      'POST',
      REGID,
      { pushlist: {} },
      { authorization: basic(APP_KEY, newKey()) },
    )
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 1004])
    const get = await call(app, 'GET', ALIAS)
    expect([get.status, get.body.error.code]).toEqual([405, 1001])
    // Another app's cid is not this app's: 1003 for the entry.
    const other = { authorization: basic(newKey('o'), newKey('s')) }
    const [mine] = await cids(app, 1)
    const res = await call(app, 'POST', REGID, { pushlist: { [mine!]: entry(ANDROID_1) } }, other)
    expect(res.body[mine!]).toEqual({ error: { code: 1003, message: 'cid is invalid' } })
  })

  it("accepts the ruby client's body byte for byte (compact JSON, cids from /v3/push/cid)", async () => {
    const { app } = await createTestApp()
    const [a, b] = await cids(app, 2)
    // jpush-api-ruby-client pusher.rb push_batch_regid: {"pushlist":{cid: SinglePushPayload#to_hash}}.
    const raw = `{"pushlist":{"${b}":{"platform":"all","target":"${ANDROID_1}","notification":{"alert":"rb"},"options":{"time_to_live":60}},"${a}":{"platform":["android"],"target":"${ANDROID_2}","message":{"msg_content":"rb msg"}}}}`
    const res = await app.inject({
      method: 'POST',
      url: REGID,
      headers: {
        authorization: basic(APP_KEY, '5e987ac6d2e04d95a9d8f0d1'),
        'content-type': 'application/json',
      },
      payload: raw,
    })
    expect(res.statusCode).toBe(200)
    expect(Object.keys(res.json()).sort()).toEqual([a, b].sort())
    expect(await received(app, `registration_id=${ANDROID_2}`)).toHaveLength(1)
  })

  it("takes the java client's entries: whole PushPayloads with an audience of one id and no target", async () => {
    const { app } = await createTestApp()
    const [a, b] = await cids(app, 2)
    // PushClient.batchSendPush: {"pushlist":{cid: PushPayload.toJSON()}}, gson's compact JSON.
    const javaEntry = (audience: string) =>
      // Notification.toJSON puts ai_opportunity beside the platform objects, not in one.
      `{"platform":"all","audience":${audience},"notification":{"ai_opportunity":false,"android":{"alert":"java"}},"options":{"sendno":1234567,"apns_production":false,"classification":0}}`
    const raw = `{"pushlist":{"${a}":${javaEntry(`{"registration_id":["${ANDROID_2}"]}`)},"${b}":${javaEntry(`{"registration_id":["${ANDROID_1}","${ANDROID_2}"]}`)}}}`
    const res = await call(app, 'POST', REGID, raw)
    expect(res.body[a!]).toEqual({ msg_id: expect.stringMatching(/^\d{17}$/) })
    // Two ids are no single target.
    expect(res.body[b!]).toEqual({ error: { code: 1002, message: 'Missing parameter: target' } })
    expect(await received(app, `registration_id=${ANDROID_2}`)).toHaveLength(1)
  })
})

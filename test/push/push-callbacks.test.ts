import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { pushClicked } from '../../src/push/send/index.js'
import { APP_KEY, basic, call, createTestApp, defaultAuth, MASTER_SECRET } from '../helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from '../scheduler/receiver.js'
import { ANDROID_1, addDevice, pushBody } from './helpers.js'

// A push's `callback` (jpush-api.md §5.1): JSON POSTed to its URL with the app's Basic
// credentials, one event type per bit, retried on the app's clock.

const T0 = Date.parse('2026-01-01T00:00:00Z') / 1000

/** Moves the app's clock; answers once everything due on the way, callbacks included, has run. */
async function advance(app: SandboxApp, ms: number, headers: Record<string, string> = {}) {
  const res = await call(app, 'POST', '/_sandbox/clock', { advance_ms: ms }, headers)
  expect(res.status).toBe(200)
}

const bodies = (r: { received: Array<{ text: string }> }) =>
  r.received.map(x => JSON.parse(x.text)).sort((a, b) => a.callback_type - b.callback_type)

describe('push callbacks', () => {
  it('push succeeded (8) and delivered (1): JSON with Basic credentials, the params echoed', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const callback = { url: receiver.url, params: { order: 'A1' }, type: 9 }
    const res = await call(app, 'POST', '/v3/push', pushBody({ callback, options: { sendno: 5 } }))
    const msgId = res.body.msg_id
    await advance(app, 0)
    expect(receiver.received).toHaveLength(2)
    for (const r of receiver.received) {
      expect(r.contentType).toBe('application/json; charset=utf-8')
      expect(r.authorization).toBe(basic(APP_KEY, MASTER_SECRET))
    }
    expect(bodies(receiver)).toEqual([
      {
        msg_id: msgId,
        callback_type: 1,
        event: 'delivered',
        params: { order: 'A1' },
        rows: [{ registration_id: ANDROID_1, platform: 'android', time: T0 }],
      },
      {
        msg_id: msgId,
        callback_type: 8,
        event: 'push_succeeded',
        params: { order: 'A1' },
        sendno: '5',
        targets: 1,
        time: T0,
      },
    ])
    const log = (await call(app, 'GET', '/_sandbox/callbacks')).body.callbacks
    expect(log.map((c: { type: string; state: string }) => [c.type, c.state]).sort()).toEqual([
      ['JPUSH_DELIVERED', 'delivered'],
      ['JPUSH_PUSH_SUCCEEDED', 'delivered'],
    ])
    expect(log[0].attempts[0].url).toBe(receiver.url)
  })

  it('delivered when an offline device comes online, not delivered (4) when time_to_live runs out', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const late = await addDevice(app, { platform: 'android', tags: ['cb'], online: false })
    const never = await addDevice(app, { platform: 'ios', tags: ['cb'], online: false })
    const callback = { url: receiver.url, type: 5 }
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { tag: ['cb'] }, callback, options: { time_to_live: 60 } }),
    )
    await advance(app, 30_000)
    expect(receiver.received).toEqual([])
    await call(app, 'PATCH', `/_sandbox/push/devices/${late.registration_id}`, { online: true })
    await advance(app, 29_999)
    expect(bodies(receiver)).toEqual([
      {
        msg_id: res.body.msg_id,
        callback_type: 1,
        event: 'delivered',
        params: {},
        rows: [{ registration_id: late.registration_id, platform: 'android', time: T0 + 30 }],
      },
    ])
    await advance(app, 1)
    expect(bodies(receiver)[1]).toEqual({
      msg_id: res.body.msg_id,
      callback_type: 4,
      event: 'not_delivered',
      params: {},
      rows: [{ registration_id: never.registration_id, platform: 'ios', time: T0 + 60 }],
    })
    // time_to_live 0 to an offline device: not delivered at once.
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({
        audience: { registration_id: [never.registration_id] },
        callback,
        options: { time_to_live: 0 },
      }),
    )
    await advance(app, 0)
    expect(bodies(receiver).filter(b => b.callback_type === 4)).toHaveLength(2)
  })

  it('a withdrawn push calls back nothing for what it never delivered', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const off = await addDevice(app, { platform: 'android', online: false })
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({
        audience: { registration_id: [off.registration_id] },
        callback: { url: receiver.url, type: 5 },
      }),
    )
    await call(app, 'DELETE', `/v3/push/${res.body.msg_id}`)
    await advance(app, 2 * 86_400_000)
    expect(receiver.received).toEqual([])
  })

  it('retries a failed callback 3 times, 50 s apart on the app clock, then gives up', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    receiver.answer('fail')
    await call(app, 'POST', '/v3/push', pushBody({ callback: { url: receiver.url, type: 8 } }))
    await advance(app, 0)
    expect(receiver.received).toHaveLength(1)
    for (let i = 2; i <= 4; i++) {
      await advance(app, 49_999)
      expect(receiver.received).toHaveLength(i - 1)
      await advance(app, 1)
      expect(receiver.received).toHaveLength(i)
    }
    await advance(app, 3600_000)
    expect(receiver.received).toHaveLength(4)
    const [cb] = (await call(app, 'GET', '/_sandbox/callbacks')).body.callbacks
    expect([cb.state, cb.attempts.length, cb.attempts[3].error]).toEqual([
      'failed',
      4,
      'receiver answered HTTP 500',
    ])
  })

  it('clicked (2): enqueued by pushClicked, the control plane’s click', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ callback: { url: receiver.url, params: { k: 1 } } }),
    )
    const clicked = await app.store.write(() => {
      const own = app.store.apps.get(APP_KEY)!
      return pushClicked(app, own, res.body.msg_id, ANDROID_1, Date.parse('2026-01-01T00:01:00Z'))
    })
    expect(clicked).toBe(true)
    // Due at the click's time on the app clock.
    await advance(app, 59_999)
    expect(receiver.received).toHaveLength(1)
    await advance(app, 1)
    expect(bodies(receiver).map(b => [b.callback_type, b.event, b.rows[0].time])).toEqual([
      [1, 'delivered', T0],
      [2, 'clicked', T0 + 60],
    ])
    // Not asked for (type 1), or an unknown msg_id: nothing.
    const only1 = await call(app, 'POST', '/v3/push', pushBody({ callback: { url: receiver.url, type: 1 } }))
    const own = app.store.apps.get(APP_KEY)!
    expect(await app.store.write(() => pushClicked(app, own, only1.body.msg_id, ANDROID_1, 0))).toBe(false)
    expect(await app.store.write(() => pushClicked(app, own, '18199999999999999', ANDROID_1, 0))).toBe(false)
  })

  it("without a url it goes to the app's callback_url; with neither, nowhere", async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url) })
    const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
    await call(app, 'POST', '/v3/push', pushBody({ callback: { type: 8 } }), auth)
    await advance(app, 0, auth)
    expect(receiver.received.map(r => [JSON.parse(r.text).event, r.authorization])).toEqual([
      ['push_succeeded', auth.authorization],
    ])
    await call(app, 'POST', '/v3/push', pushBody({ callback: { type: 15 } }))
    expect((await call(app, 'GET', '/_sandbox/callbacks')).body.callbacks).toEqual([])
  })

  it('device events go out 100 to a request', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    for (let i = 0; i < 101; i++) await addDevice(app, { platform: 'android', tags: ['many'] })
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { tag: ['many'] }, callback: { url: receiver.url, type: 1 } }),
    )
    await advance(app, 0)
    expect(
      bodies(receiver)
        .map(b => b.rows.length)
        .sort(),
    ).toEqual([1, 100])
  })

  it('a malformed callback is 1003, on /v3/push and /v3/push/validate', async () => {
    const { app } = await createTestApp()
    const cases: Array<[unknown, string]> = [
      ['http://x', 'callback must be an object'],
      [{ url: 'ftp://x/y' }, 'callback.url is invalid'],
      [{ url: 'not a url' }, 'callback.url is invalid'],
      [{ params: [1] }, 'callback.params must be an object'],
      [{ type: 0 }, 'callback.type is invalid'],
      [{ type: 16 }, 'callback.type is invalid'],
      [{ type: '1' }, 'callback.type is invalid'],
    ]
    for (const path of ['/v3/push', '/v3/push/validate']) {
      for (const [callback, message] of cases) {
        const res = await call(app, 'POST', path, pushBody({ callback }), { authorization: defaultAuth })
        expect([res.status, res.body], message).toEqual([400, { error: { code: 1003, message } }])
      }
    }
  })
})

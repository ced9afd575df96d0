import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, addDevice, pushBody, rate, received } from './helpers.js'

// DELETE /v3/push/{msg_id} (jpush-api.md §5.14).

describe('withdraw', () => {
  it('what still waited never arrives; what had arrived shows withdrawn; the answer is {}', async () => {
    const { app } = await createTestApp()
    const off = await addDevice(app, { platform: 'android', tags: ['w'], online: false })
    await addDevice(app, { platform: 'android', tags: ['w'] })
    const pushed = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['w'] } }))
    const msgId = pushed.body.msg_id as string
    const res = await call(app, 'DELETE', `/v3/push/${msgId}`)
    expect([res.status, res.body, res.headers['content-type']]).toEqual([
      200,
      {},
      'application/json; charset=utf-8',
    ])
    expect(rate(res.headers)).toEqual(['600', '598', '60'])
    const online = await call(app, 'PATCH', `/_sandbox/push/devices/${off.registration_id}`, { online: true })
    expect(online.body.delivered).toBe(0)
    const got = await received(app, `msg_id=${msgId}`)
    expect(got).toHaveLength(1)
    expect(got[0]!.withdrawn_at).toBe(new Date(Date.parse('2026-01-01T00:00:00Z')).toISOString())
    // Other pushes are untouched.
    const other = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['w'] } }))
    expect((await received(app, `msg_id=${other.body.msg_id}`))[0]!.withdrawn_at).toBeNull()
    // The report counts what had arrived; status/message says the waiting device never got it.
    const status = await call(app, 'POST', '/v3/status/message', {
      msg_id: msgId,
      registration_ids: [off.registration_id],
    })
    expect(status.body[off.registration_id].status).toBe(1)
  })

  it('a pending SMS fallback is never sent', async () => {
    const { app } = await createTestApp()
    const d = await addDevice(app, { platform: 'android', mobile: '13900139077', online: false })
    const pushed = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({
        audience: { registration_id: [d.registration_id] },
        sms_message: { delay_time: 60, temp_id: 2, temp_para: { order: 'W1', days: 1 } },
      }),
    )
    await call(app, 'DELETE', `/v3/push/${pushed.body.msg_id}`)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 3600_000 })
    expect((await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139077')).body.messages).toEqual([])
  })

  it('withdrawing twice is no error', async () => {
    const { app } = await createTestApp()
    const pushed = await call(app, 'POST', '/v3/push', pushBody())
    expect((await call(app, 'DELETE', `/v3/push/${pushed.body.msg_id}`)).status).toBe(200)
    expect((await call(app, 'DELETE', `/v3/push/${pushed.body.msg_id}`)).status).toBe(200)
  })

  it('an unknown msg_id, another app’s, or one older than a day: 400 1003', async () => {
    const { app } = await createTestApp()
    const mine = await call(app, 'POST', '/v3/push', pushBody())
    const other = { authorization: basic(newKey('o'), newKey('s')) }
    const theirs = await call(app, 'DELETE', `/v3/push/${mine.body.msg_id}`, undefined, other)
    expect([theirs.status, theirs.body]).toEqual([
      400,
      { error: { code: 1003, message: `msg_id ${mine.body.msg_id} does not exist` } },
    ])
    for (const id of ['18199999999999999', 'abc']) {
      const res = await call(app, 'DELETE', `/v3/push/${id}`)
      expect([res.status, res.body.error.code]).toEqual([400, 1003])
    }
    // Still pushed for its own app, and still delivered.
    expect(await received(app, `registration_id=${ANDROID_1}`)).toHaveLength(1)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 86_400_001 })
    const late = await call(app, 'DELETE', `/v3/push/${mine.body.msg_id}`)
    expect([late.status, late.body.error.code]).toEqual([400, 1003])
    expect(late.body.error.message).toContain('older than one day')
  })

  it('other methods are 405 1001; wrong credentials 401 1004', async () => {
    const { app } = await createTestApp()
    const get = await call(app, 'GET', '/v3/push/18100000000000001')
    expect([get.status, get.body.error.code]).toEqual([405, 1001])
    const wrong = await call(app, 'DELETE', '/v3/push/18100000000000001', undefined, {
      authorization: basic('7d431e42dfa6a6d693ac2d04', newKey()),
    })
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 1004])
  })

  it('takes the DELETE as python sends it (content-type with a colon, Content-Length: 0)', async () => {
    const { app } = await createTestApp()
    const pushed = await call(app, 'POST', '/v3/push', pushBody())
    const res = await app.inject({
      method: 'DELETE',
      url: `/v3/push/${pushed.body.msg_id}`,
      headers: {
        authorization: basic('7d431e42dfa6a6d693ac2d04', '5e987ac6d2e04d95a9d8f0d1'),
        'content-type': 'application/json;charset:utf-8',
        'content-length': '0',
      },
    })
    expect([res.statusCode, res.body]).toEqual([200, '{}'])
  })
})

it('a POST to a push path the sandbox does not emulate is an unknown path (404 1003), not a 405', async () => {
  const { app } = await createTestApp()
  // (/v3/push/template and /v3/images/… were such paths until issue 22 emulated them.)
  for (const path of ['/v3/push/geofence', '/v3/push/liveactivity/batch']) {
    const res = await call(app, 'POST', path, {})
    expect([res.status, res.body], path).toEqual([404, { error: { code: 1003, message: 'API not found' } }])
    // Whatever its body, as for any unknown path: it is not read as a push-host body first.
    const form = await call(app, 'POST', path, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' })
    expect([form.status, form.body], path).toEqual([404, { error: { code: 1003, message: 'API not found' } }])
  }
})

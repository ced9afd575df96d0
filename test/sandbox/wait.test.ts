import { describe, expect, it, vi } from 'vitest'
import { APP_KEY, basic, newKey } from '../helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from '../scheduler/receiver.js'
import { MOBILE, OTHER_MOBILE } from '../sms/support.js'
import { listening } from './real-port.js'

// `wait=` (issue 12 §3) over a real port: a request held until a write that matches it is
// durable, answered as without waiting when the wait ends, the client hangs up, the app is reset
// or the sandbox closes. Waits are real time; each test keeps them short or ends them itself.

type Sandbox = Awaited<ReturnType<typeof listening>>

const notice = (mobile: string) => ({ mobile, temp_id: 2, temp_para: { order: 'W1', days: '1' } })
const held = (s: Sandbox, n: number, appKey = APP_KEY) =>
  vi.waitFor(() => expect(s.app.hub.count(appKey).waiters).toBe(n), { timeout: 10_000 })

describe('wait= on the lists', () => {
  it('holds a list until a send matching its filters, then answers at once with it', async () => {
    const s = await listening()
    const answer = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&wait=20000`)
    await held(s, 1)
    // A send to another mobile is durable too, but matches nothing: still held.
    await s.http('POST', '/v1/messages', notice(OTHER_MOBILE))
    const sent = await s.http('POST', '/v1/messages', notice(MOBILE))
    const res = await answer
    expect(res.status).toBe(200)
    expect(res.body.messages.map((m: { msg_id: string }) => m.msg_id)).toEqual([sent.body.msg_id])
    expect(res.body.next_after).toBe(res.body.messages[0].seq)
    expect(s.app.hub.count(APP_KEY).waiters).toBe(0)
  })

  it('waits for the next SMS to a mobile with after=: the example of the issue', async () => {
    const s = await listening()
    // Each send takes two seqs: its message's, then its request's in the journal (request.completed).
    for (let i = 0; i < 41; i++)
      await s.http('POST', '/v1/messages', notice(`139${String(i).padStart(8, '0')}`))
    const answer = s.http('GET', '/_sandbox/sms/messages?mobile=13800138000&after=82&wait=5000')
    await held(s, 1)
    const sent = await s.http('POST', '/v1/messages', notice('13800138000'))
    const res = await answer
    expect(res.body.messages).toEqual([expect.objectContaining({ seq: 83, msg_id: sent.body.msg_id })])
    expect(res.body.next_after).toBe(83)
    // Nothing newer than 83 yet: a short wait ends empty, and says where to go on from.
    const later = await s.http('GET', '/_sandbox/sms/messages?mobile=13800138000&after=83&wait=100')
    expect(later.body).toEqual({ messages: [], next_after: 83 })
  })

  it('answers as without wait when the wait ends: an empty list, the 404 of codes/latest', async () => {
    const s = await listening()
    const list = await s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&wait=150`)
    expect(list).toEqual({ status: 200, body: { messages: [], next_after: 0 } })
    const code = await s.http('GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}&wait=150`)
    expect(code.status).toBe(404)
    expect(code.body.error.code).toBe(90044)
    expect(s.app.hub.count(APP_KEY).waiters).toBe(0)
  })

  it('codes/latest waits for the next code of a mobile', async () => {
    const s = await listening()
    const first = await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const seen = await s.http('GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)
    expect(seen.body.msg_id).toBe(first.body.msg_id)
    const answer = s.http(
      'GET',
      `/_sandbox/sms/codes/latest?mobile=${MOBILE}&after=${seen.body.seq}&wait=20000`,
    )
    await held(s, 1)
    const second = await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const res = await answer
    expect(res.body).toMatchObject({
      msg_id: second.body.msg_id,
      kind: 'code',
      code: expect.stringMatching(/^\d{6}$/),
    })
  })

  it('push/messages waits for a delivery to the alias', async () => {
    const s = await listening()
    await s.http('POST', '/_sandbox/push/devices', { platform: 'android', alias: 'waiter', online: false })
    const answer = s.http('GET', '/_sandbox/push/messages?alias=waiter&wait=20000')
    await held(s, 1)
    const push = await s.http('POST', '/v3/push', {
      platform: 'all',
      audience: { alias: ['waiter'] },
      notification: { alert: 'wake up' },
    })
    expect(push.status).toBe(200)
    // Offline: accepted but not delivered, so still held until the device comes online.
    const devices = await s.http('GET', '/_sandbox/push/devices')
    const rid = devices.body.devices.find((d: { alias: string }) => d.alias === 'waiter').registration_id
    await held(s, 1)
    await s.http('POST', `/_sandbox/push/devices/${rid}`, { online: true })
    const res = await answer
    expect(res.body.messages).toEqual([
      expect.objectContaining({
        msg_id: push.body.msg_id,
        alias: 'waiter',
        notification: { alert: 'wake up' },
      }),
    ])
  })

  it('callbacks waits for the attempt it filters on', async () => {
    const receiver = await startReceiver()
    const s = await listening({}, { seedFile: callbackSeed(receiver.url) })
    const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
    const answer = s.http(
      'GET',
      '/_sandbox/callbacks?kind=SMS_REPLY&state=delivered&wait=20000',
      undefined,
      auth,
    )
    await held(s, 1, CALLBACK_APP.appKey)
    await s.http('POST', '/_sandbox/sms/replies', { mobile: MOBILE, content: 'yes' }, auth)
    const res = await answer
    expect(res.body.callbacks).toEqual([
      expect.objectContaining({
        type: 'SMS_REPLY',
        state: 'delivered',
        data: expect.objectContaining({ phone: MOBILE }),
      }),
    ])
    expect(receiver.received).toHaveLength(1)
  })

  it('frees the place of a client that hangs up', async () => {
    const s = await listening()
    const abort = new AbortController()
    const answer = s.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, {}, abort.signal)
    await held(s, 1)
    abort.abort()
    await expect(answer).rejects.toThrow()
    await held(s, 0)
  })

  it('holds at most maxWaiters requests per app (429 beyond), other apps unaffected', async () => {
    const s = await listening({ maxWaiters: 2 })
    const answers = [1, 2].map(() => s.http('GET', '/_sandbox/sms/messages?wait=20000'))
    await held(s, 2)
    const third = await s.http('GET', '/_sandbox/sms/messages?wait=20000')
    expect(third.status).toBe(429)
    expect(third.body.error).toEqual({
      code: 90060,
      message: 'too many requests waiting: at most 2 per app at a time (MAX_WAITING_REQUESTS_PER_APP)',
    })
    const other = { authorization: basic(newKey('w'), newKey('s')) }
    expect((await s.http('GET', '/_sandbox/sms/messages?wait=50', undefined, other)).status).toBe(200)
    await s.http('POST', '/v1/messages', notice(MOBILE))
    for (const res of await Promise.all(answers)) expect(res.body.messages).toHaveLength(1)
  })

  it('holds at most MAX_WAITING_REQUESTS_PER_CLIENT over all apps of one client (429), and MAX_WAITING_REQUESTS in all (503)', async () => {
    const perClient = await listening({}, { maxWaitingPerClient: 2, maxWaiting: 10 })
    const apps = [1, 2, 3].map(() => ({ authorization: basic(newKey('w'), newKey('s')) }))
    const waiting = apps
      .slice(0, 2)
      .map(a => perClient.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, a))
    await vi.waitFor(() => expect(perClient.app.held.counts().waiting).toBe(2), { timeout: 10_000 })
    const third = await perClient.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, apps[2])
    expect(third.status).toBe(429)
    expect(third.body.error).toEqual({
      code: 90060,
      message:
        'too many requests waiting from 127.0.0.1: at most 2 at a time per client (MAX_WAITING_REQUESTS_PER_CLIENT)',
    })
    // A request that does not wait is no listener: answered as ever.
    expect((await perClient.http('GET', '/_sandbox/sms/messages', undefined, apps[2])).status).toBe(200)
    expect(perClient.log()).toContain('"bound":"requests waiting per client","client":"127.0.0.1"')
    await perClient.app.close()
    for (const res of await Promise.all(waiting)) expect(res.status).toBe(200)

    const total = await listening({}, { maxWaitingPerClient: 5, maxWaiting: 1 })
    const first = total.http('GET', '/_sandbox/sms/messages?wait=20000')
    await vi.waitFor(() => expect(total.app.held.counts().waiting).toBe(1), { timeout: 10_000 })
    const full = await total.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, apps[0])
    expect(full.status).toBe(503)
    expect(full.body.error).toEqual({
      code: 90060,
      message: 'too many requests waiting in the sandbox: at most 1 at a time (MAX_WAITING_REQUESTS)',
    })
    await total.http('POST', '/v1/messages', notice(MOBILE))
    expect((await first).body.messages).toHaveLength(1)
    expect(total.app.held.counts().waiting).toBe(0)
  })

  it('with MAX_WAITING_REQUESTS taken, an app that holds none answers the oldest wait of the app holding the most (issue 33)', async () => {
    const s = await listening({}, { maxWaitingPerClient: 10, maxWaiting: 2 })
    const oldest = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&wait=20000`)
    await held(s, 1)
    const newer = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&wait=20000`)
    await held(s, 2)
    const other = { authorization: basic(newKey('w'), newKey('s')) }
    const mine = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&wait=20000`, undefined, other)
    // The hog's oldest is answered as without waiting; the newcomer is held.
    expect(await oldest).toEqual({ status: 200, body: { messages: [], next_after: 0 } })
    await held(s, 1)
    await vi.waitFor(() => expect(s.app.held.counts().waiting).toBe(2), { timeout: 10_000 })
    expect(s.app.held.counts().refused['requests waiting taken back']).toBe(1)
    await s.http('POST', '/v1/messages', notice(MOBILE))
    expect((await newer).body.messages).toHaveLength(1)
    await s.http('POST', '/v1/messages', notice(MOBILE), other)
    expect((await mine).body.messages).toHaveLength(1)
  })

  it("answers the app's held requests at once when it is reset, and after= reads on past the reset", async () => {
    const s = await listening()
    await s.http('POST', '/v1/messages', notice(OTHER_MOBILE)) // seq 1, its journal entry 2
    const answer = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&after=1&wait=20000`)
    await held(s, 1)
    expect((await s.http('POST', '/_sandbox/reset')).status).toBe(200) // app.reset: 3, its entry 4
    // Answered as without waiting: nothing of the app is left; next_after is still the caller's.
    expect(await answer).toEqual({ status: 200, body: { messages: [], next_after: 1 } })
    // Seqs go on from where they were: the same after= finds what the app does next.
    const again = s.http('GET', `/_sandbox/sms/messages?mobile=${MOBILE}&after=1&wait=20000`)
    await held(s, 1)
    const sent = await s.http('POST', '/v1/messages', notice(MOBILE))
    expect((await again).body).toEqual({
      messages: [expect.objectContaining({ seq: 5, msg_id: sent.body.msg_id })],
      next_after: 5,
    })
  })

  it('answers the held requests of an app removed for good', async () => {
    const s = await listening()
    const appKey = newKey('gone')
    const own = { authorization: basic(appKey, newKey('s')) }
    const answer = s.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, own)
    await held(s, 1, appKey)
    const removed = await s.http('DELETE', '/_sandbox/app', undefined, own)
    expect(removed.body).toEqual({ app_key: appKey, deleted: true, recreated: false })
    expect(await answer).toEqual({ status: 200, body: { messages: [], next_after: 0 } })
    expect(s.app.hub.count(appKey)).toEqual({ waiters: 0, subscribers: 0 })
  })

  it('the close answers held requests at once rather than waiting for them', async () => {
    const s = await listening()
    const answers = [
      s.http('GET', '/_sandbox/sms/messages?wait=30000'),
      s.http('GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}&wait=30000`),
    ]
    await held(s, 2)
    // Both held for 30 s, the test's own limit is 20 s: only an answer at the close passes.
    await Promise.all([s.app.close(), ...answers])
    const [list, code] = await Promise.all(answers)
    expect(list).toEqual({ status: 200, body: { messages: [], next_after: 0 } })
    expect(code?.status).toBe(404)
  })
})

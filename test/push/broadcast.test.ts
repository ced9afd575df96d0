import { describe, expect, it, vi } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import type { Delivery } from '../../src/push/send/delivery/deliveries-table.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { listening } from '../sandbox/real-port.js'
import { startReceiver } from '../scheduler/receiver.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, IOS_2, push } from './helpers.js'

// A broadcast (audience "all") writes its deliveries in one statement (push/send/delivery/fan-out-table.ts);
// every other audience row by row (push/send/delivery/fan-out.ts). Both must leave the same rows: here the same
// push goes to "all" and to every registration_id by name (the row-by-row path), and the rows,
// seqs, listings, wake-ups, expiries and callbacks of the two are compared.

/** The registry beside the four devices every app starts with, in registration order. */
async function registry(app: SandboxApp) {
  const extra = [
    { platform: 'android', alias: 'off1', online: false, mobile: '13900139000' },
    { platform: 'ios', online: false },
    { platform: 'hmos', alias: 'h1', online: true },
    { platform: 'quickapp', alias: 'q1', online: false },
    { platform: 'android', alias: 'late', online: true },
  ]
  const rids = [ANDROID_1, ANDROID_2, IOS_1, IOS_2]
  for (const d of extra) rids.push((await addDevice(app, d)).registration_id)
  return rids
}

const rowsOf = (app: SandboxApp, msgId: string) => app.store.pushDeliveries.ofPush(APP_KEY, msgId)

/** A push's rows without what differs between two pushes: the msg_id, and seqs from the first. */
function shape(rows: Delivery[]) {
  const first = Math.min(...rows.flatMap(r => (r.seq === null ? [] : [r.seq])))
  return rows.map(({ msgId: _, seq, ...r }) => ({ ...r, seq: seq === null ? null : seq - first }))
}

type CallbackData = { msg_id: string; callback_type: number; rows?: unknown[]; targets?: number }

async function accepted(app: SandboxApp, body: Record<string, unknown>): Promise<string> {
  const res = await push(app, body)
  expect(res.status).toBe(200)
  return res.body.msg_id
}

const variants: Array<[string, Record<string, unknown>]> = [
  ['every platform, a notification', { platform: 'all', notification: { alert: 'hi' } }],
  ['a platform filter', { platform: ['ios', 'quickapp'], notification: { alert: 'hi' } }],
  ['a notification for android only', { platform: 'all', notification: { android: { alert: 'a' } } }],
  [
    'a message, time_to_live 0 (offline: expired)',
    { platform: 'all', message: { msg_content: 'm' }, options: { time_to_live: 0 } },
  ],
  [
    // With a fallback the broadcast itself goes row by row (push/send/delivery/fan-out.ts): still the same rows.
    'an SMS fallback (row by row)',
    {
      platform: 'all',
      notification: { alert: 'hi' },
      sms_message: { delay_time: 60, temp_id: 2, temp_para: { order: 'A1', days: 3 } },
    },
  ],
]

describe('a broadcast writes the rows of the row-by-row path', () => {
  it.each(variants)('%s', async (_, body) => {
    const { app, clock } = await createTestApp()
    const rids = await registry(app)
    clock.advance(1000)
    const all = await accepted(app, { ...body, audience: 'all' })
    const named = await accepted(app, { ...body, audience: { registration_id: rids } })
    const [a, b] = [rowsOf(app, all), rowsOf(app, named)]
    expect(a.length).toBeGreaterThan(0)
    expect(shape(a)).toEqual(shape(b))
    // And so the same statistics (report-counts.ts).
    const report = await call(app, 'GET', `/v3/messages/detail?msg_ids=${all},${named}`)
    const [ra, rb] = report.body.map(({ msg_id: _, ...r }: { msg_id: string }) => r)
    expect(ra).toEqual(rb)
    // The broadcast's seqs come just before its request's entry in the journal, then the next
    // push's push.sent and its deliveries: one range, nothing skipped.
    const seqs = (rows: Delivery[]) => rows.flatMap(r => (r.seq === null ? [] : [r.seq]))
    const n = seqs(a).length
    expect([...seqs(a), ...seqs(b)]).toEqual(
      Array.from({ length: n * 2 }, (_, i) => seqs(a)[0]! + i + (i < n ? 0 : 2)),
    )
  })

  it('what each device got: online delivered now with its alias, offline pending until time_to_live', async () => {
    const { app, clock } = await createTestApp()
    const rids = await registry(app)
    const now = clock.now()
    const msgId = await accepted(app, { platform: 'all', audience: 'all', notification: { alert: 'x' } })
    const rows = rowsOf(app, msgId)
    expect(rows.map(r => [r.registrationId, r.status, r.alias])).toEqual([
      [ANDROID_1, 'delivered', 'alias1'],
      [ANDROID_2, 'delivered', 'alias2'],
      [IOS_1, 'delivered', 'alias1'],
      [IOS_2, 'delivered', 'alias3'],
      [rids[4], 'pending', null],
      [rids[5], 'pending', null],
      [rids[6], 'delivered', 'h1'],
      [rids[7], 'pending', null],
      [rids[8], 'delivered', 'late'],
    ])
    for (const r of rows) {
      expect(r.expiresAt).toBe(now + 86_400_000)
      expect(r.deliveredAt).toBe(r.status === 'delivered' ? now : null)
      expect([r.smsDueAt, r.smsMsgId, r.smsError]).toEqual([null, null, null])
    }
  })
})

describe('a broadcast in the lists and the due work', () => {
  it('its seqs follow the earlier ones; after= lists them; the next delivery goes on from them', async () => {
    const { app } = await createTestApp()
    const rids = await registry(app)
    await accepted(app, { platform: 'all', audience: { alias: ['alias2'] }, notification: { alert: 'one' } })
    const before = (await call(app, 'GET', '/_sandbox/push/messages')).body.next_after as number
    expect(before).toBeGreaterThan(0)
    const msgId = await accepted(app, { platform: 'all', audience: 'all', notification: { alert: 'all' } })
    // before + 1: the first push's request in the journal (request.completed); + 2: the
    // broadcast's push.sent.
    const listed = (await call(app, 'GET', `/_sandbox/push/messages?after=${before}`)).body
    expect(listed.messages.map((m: { seq: number }) => m.seq)).toEqual(
      [8, 7, 6, 5, 4, 3].map(i => before + i),
    )
    expect(listed.messages.map((m: { registration_id: string }) => m.registration_id)).toEqual(
      [ANDROID_1, ANDROID_2, IOS_1, IOS_2, rids[6], rids[8]].reverse(),
    )
    expect(listed.messages[0]).toMatchObject({ msg_id: msgId, alias: 'late', notification: { alert: 'all' } })
    // An offline device coming online gets it after the broadcast's request (before + 9) and its
    // own device.changed (before + 10).
    await call(app, 'PATCH', `/_sandbox/push/devices/${rids[4]}`, { online: true })
    const next = (await call(app, 'GET', `/_sandbox/push/messages?after=${before + 8}`)).body.messages
    expect(next).toEqual([expect.objectContaining({ seq: before + 11, msg_id: msgId, alias: 'off1' })])
  })

  it('its pending deliveries expire at time_to_live: the due index is told', async () => {
    const { app, clock } = await createTestApp()
    const rids = await registry(app)
    const msgId = await accepted(app, {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'soon' },
      options: { time_to_live: 60 },
    })
    // Only the process clock moves (no clock move of the app, which asks every bound again): the
    // next request catches up the app's due work if, and only if, the broadcast noted it.
    clock.advance(60_000)
    expect((await call(app, 'GET', '/_sandbox/push/messages')).status).toBe(200)
    expect(rowsOf(app, msgId).map(r => [r.registrationId, r.status])).toEqual(
      rids.map((rid, i) => [rid, [4, 5, 7].includes(i) ? 'expired' : 'delivered']),
    )
    const late = await call(app, 'PATCH', `/_sandbox/push/devices/${rids[5]}`, { online: true })
    expect(late.body.delivered).toBe(0)
  })

  it('a waiting list wakes for a broadcast', async () => {
    const s = await listening()
    const answer = s.http('GET', '/_sandbox/push/messages?alias=h1&wait=20000')
    await vi.waitFor(() => expect(s.app.hub.count(APP_KEY).waiters).toBe(1), { timeout: 10_000 })
    await s.http('POST', '/_sandbox/push/devices', { platform: 'hmos', alias: 'h1' })
    const sent = await s.http('POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'wake' },
    })
    expect(sent.status).toBe(200)
    const res = await answer
    expect(res.body.messages).toEqual([
      expect.objectContaining({ msg_id: sent.body.msg_id, alias: 'h1', platform: 'hmos' }),
    ])
  })
})

describe('a broadcast with a callback, and its limits', () => {
  it('calls back on the same deliveries as the row-by-row path', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const rids = await registry(app)
    const body = {
      platform: 'all',
      notification: { alert: 'cb' },
      options: { time_to_live: 0 },
      callback: { url: receiver.url, type: 13 },
    }
    const all = await accepted(app, { ...body, audience: 'all' })
    const named = await accepted(app, { ...body, audience: { registration_id: rids } })
    const data = async (msgId: string) =>
      (
        (await call(app, 'GET', '/_sandbox/callbacks?limit=1000')).body.callbacks as Array<{
          data: CallbackData
        }>
      )
        .map(c => c.data)
        .filter(d => d.msg_id === msgId)
        .map(({ msg_id: _, ...d }) => d)
        .sort((x, y) => x.callback_type - y.callback_type)
    const got = await data(all)
    expect(got.map(d => [d.callback_type, d.rows?.length ?? d.targets])).toEqual([
      [1, 6],
      [4, 3],
      [8, 9],
    ])
    expect(got).toEqual(await data(named))
  })

  it('the daily limit counts broadcasts made; no target (1011) and validate count none', async () => {
    const { app } = await createTestApp()
    await registry(app)
    const nobody = await push(app, { platform: ['winphone'], audience: 'all', notification: { alert: 'x' } })
    expect([nobody.status, nobody.body.error.code]).toEqual([400, 1011])
    expect(nobody.body.msg_id).toMatch(/^\d{17}$/)
    expect(app.store.pushes.get(APP_KEY, nobody.body.msg_id)).toBeUndefined()
    const body = { platform: 'all', audience: 'all', notification: { alert: 'x' } }
    expect((await call(app, 'POST', '/v3/push/validate', body)).status).toBe(200)
    for (let i = 0; i < 10; i++) await accepted(app, body)
    const eleventh = await push(app, body)
    expect([eleventh.status, eleventh.body.error.code]).toEqual([403, 2008])
    // Validate-only wrote no rows: ten broadcasts of nine devices.
    expect(app.store.pushDeliveries.search(APP_KEY, {}).length).toBe(90)
  })
})

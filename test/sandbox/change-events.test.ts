import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { DEVICE_EVENTS_PER_REQUEST } from '../../src/changes/announce.js'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, ANDROID_2, IOS_1 } from '../push/helpers.js'
import { create, single } from '../push/schedule-helpers.js'
import { sendTimeIn } from '../sms/schedule-helpers.js'
import { MOBILE } from '../sms/support.js'
import { listening, openStream } from './real-port.js'

// Issue 21, every view live: what an app configures (templates, signatures, SMS and push
// schedules, devices, faults), pushes whoever they reach and checked codes are events of the
// stream, each made through the vendor API and read back through the events long-poll (or the
// stream), its data the item its list shows.

interface Event {
  seq: number
  type: string
  data: Record<string, unknown>
}

type Headers = Record<string, string>

/** A field of an item in an event's data (`at(e.data, 'schedule', 'state')`), or null. */
const at = (data: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : null),
    data,
  ) ?? null

/** Where the app's events stand now: what follows is read `after` it. */
async function mark(app: SandboxApp, headers: Headers = {}): Promise<number> {
  const res = await call(app, 'GET', '/_sandbox/events?limit=1', undefined, headers)
  expect(res.status, res.raw).toBe(200)
  return res.body.next_after
}

/** The events of `kind` after `after`, oldest first, as the long-poll answers them. */
async function since(app: SandboxApp, after: number, kind: string, headers: Headers = {}): Promise<Event[]> {
  const res = await call(
    app,
    'GET',
    `/_sandbox/events?kind=${kind}&after=${after}&wait=1`,
    undefined,
    headers,
  )
  expect(res.status, res.raw).toBe(200)
  for (const e of res.body.events) expect(e.type).toBe(kind)
  return [...res.body.events].reverse()
}

const item = async (app: SandboxApp, url: string, key: string, id: string, value: unknown) => {
  const list = (await call(app, 'GET', url)).body[key] as Array<Record<string, unknown>>
  return list.find(x => x[id] === value)
}

describe('template.changed and sign.changed', () => {
  it('follow POST, PUT and DELETE /v1/templates, the template as GET /_sandbox/sms/templates shows it', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const made = await call(app, 'POST', '/v1/templates', { template: '取件码{{code}}', type: 1, ttl: 60 })
    expect(made.status, made.raw).toBe(200)
    const id = made.body.temp_id
    const [created] = await since(app, after, 'template.changed')
    expect(created?.data).toEqual({
      action: 'created',
      temp_id: id,
      template: await item(app, '/_sandbox/sms/templates', 'templates', 'temp_id', id),
    })
    expect(created?.data.template).toMatchObject({ template: '取件码{{code}}', status: 0 })

    await call(app, 'POST', `/_sandbox/sms/templates/${id}/review`, { status: 2, refuse_reason: 'no' })
    const put = await call(app, 'PUT', `/v1/templates/${id}`, {
      template: '新取件码{{code}}',
      type: 1,
      ttl: 60,
    })
    expect(put.status, put.raw).toBe(200)
    expect((await call(app, 'DELETE', `/v1/templates/${id}`)).status).toBe(200)
    const events = await since(app, after, 'template.changed')
    expect(events.map(e => e.data.action)).toEqual(['created', 'modified', 'deleted'])
    expect(events[1]?.data.template).toMatchObject({ temp_id: id, template: '新取件码{{code}}', status: 0 })
    expect(events[2]?.data).toEqual({ action: 'deleted', temp_id: id, template: null })
  })

  it('follow POST /v1/sign (a form), its modification and DELETE, as GET /_sandbox/sms/signs shows it', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const made = await postForm(app, '/v1/sign', pythonForm({ sign: '新签名' }))
    expect(made.status).toBe(200)
    const id = made.body.sign_id
    const [created] = await since(app, after, 'sign.changed')
    expect(created?.data).toEqual({
      action: 'created',
      sign_id: id,
      sign: await item(app, '/_sandbox/sms/signs', 'signs', 'sign_id', id),
    })
    expect((await postForm(app, `/v1/sign/${id}`, pythonForm({ sign: '改签名' }))).status).toBe(200)
    expect((await call(app, 'DELETE', `/v1/sign/${id}`)).status).toBe(200)
    const events = await since(app, after, 'sign.changed')
    expect(events.map(e => [e.data.action, at(e.data, 'sign', 'sign')])).toEqual([
      ['created', '新签名'],
      ['modified', '改签名'],
      ['deleted', null],
    ])
  })
})

describe('schedule.changed', () => {
  it('follows an SMS task created, replaced and deleted through /v1/schedule', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const body = async () => ({ send_time: await sendTimeIn(app, 3_600_000), mobile: MOBILE, temp_id: 1 })
    const made = await call(app, 'POST', '/v1/schedule', { ...(await body()), temp_para: { code: '1' } })
    expect(made.status, made.raw).toBe(200)
    const id = made.body.schedule_id
    const [created] = await since(app, after, 'schedule.changed')
    const listed = (await call(app, 'GET', `/_sandbox/sms/schedules?schedule_id=${id}`)).body.schedules[0]
    expect(created?.data).toEqual({ api: 'sms', action: 'created', schedule_id: id, schedule: listed })
    const put = await call(app, 'PUT', `/v1/schedule/${id}`, { ...(await body()), temp_para: { code: '2' } })
    expect(put.status, put.raw).toBe(200)
    expect((await call(app, 'DELETE', `/v1/schedule/${id}`)).status).toBe(200)
    const events = await since(app, after, 'schedule.changed')
    expect(events.map(e => [e.data.action, at(e.data, 'schedule', 'state')])).toEqual([
      ['created', 'pending'],
      ['updated', 'pending'],
      ['deleted', 'deleted'],
    ])
    expect(events[1]?.data.schedule).toMatchObject({ recipients: [{ temp_para: { code: '2' } }] })
  })

  it('follows a JPush task created, updated and deleted through /v3/schedules', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const id = await create(app, single('2026-01-02 08:00:00'))
    const [created] = await since(app, after, 'schedule.changed')
    const listed = (await call(app, 'GET', `/_sandbox/push/schedules?schedule_id=${id}`)).body.schedules[0]
    expect(created?.data).toEqual({ api: 'push', action: 'created', schedule_id: id, schedule: listed })
    expect((await call(app, 'PUT', `/v3/schedules/${id}`, { enabled: false })).status).toBe(200)
    expect((await call(app, 'DELETE', `/v3/schedules/${id}`)).status).toBe(200)
    const events = await since(app, after, 'schedule.changed')
    expect(events.map(e => [e.data.api, e.data.action, at(e.data, 'schedule', 'state')])).toEqual([
      ['push', 'created', 'active'],
      ['push', 'updated', 'disabled'],
      ['push', 'deleted', 'deleted'],
    ])
  })
})

describe('device.changed', () => {
  it('follows /v3/devices, /v3/tags and /v3/aliases, and a device brought offline and online', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const changed = await call(app, 'POST', `/v3/devices/${ANDROID_1}`, {
      tags: { add: ['gold'] },
      alias: 'alice',
    })
    expect(changed.status, changed.raw).toBe(200)
    const [updated] = await since(app, after, 'device.changed')
    expect(updated?.data).toEqual({
      action: 'updated',
      registration_id: ANDROID_1,
      device: await item(app, '/_sandbox/push/devices', 'devices', 'registration_id', ANDROID_1),
    })
    expect(updated?.data.device).toMatchObject({ alias: 'alice', tags: expect.arrayContaining(['gold']) })

    const tagged = await call(app, 'POST', '/v3/tags/silver', {
      registration_ids: { add: [ANDROID_2, IOS_1] },
    })
    expect(tagged.status, tagged.raw).toBe(200)
    expect((await call(app, 'DELETE', '/v3/aliases/alice')).status).toBe(200)
    expect((await call(app, 'PATCH', `/_sandbox/push/devices/${IOS_1}`, { online: false })).status).toBe(200)
    expect((await call(app, 'PATCH', `/_sandbox/push/devices/${IOS_1}`, { online: true })).status).toBe(200)
    const registered = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })
    const events = (await since(app, after, 'device.changed')).map(e => [
      e.data.action,
      e.data.registration_id,
    ])
    expect(events).toEqual([
      ['updated', ANDROID_1],
      ['updated', ANDROID_2],
      ['updated', IOS_1],
      ['updated', ANDROID_1],
      ['offline', IOS_1],
      ['online', IOS_1],
      ['registered', registered.body.registration_id],
    ])
  })

  it(`is one event without a device when a request changes more than ${DEVICE_EVENTS_PER_REQUEST} devices`, async () => {
    const { app } = await createTestApp()
    const n = DEVICE_EVENTS_PER_REQUEST + 1
    const rids: string[] = []
    for (let i = 0; i < n; i++)
      rids.push(
        (await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })).body.registration_id,
      )
    const after = await mark(app)
    const tagged = await call(app, 'POST', '/v3/tags/crowd', { registration_ids: { add: rids } })
    expect(tagged.status, tagged.raw).toBe(200)
    expect((await since(app, after, 'device.changed')).map(e => e.data)).toEqual([
      { action: 'updated', registration_id: null, device: null, count: n },
    ])
    // Exactly the bound: one event per device.
    const before = await mark(app)
    const some = await call(app, 'POST', '/v3/tags/crowd', {
      registration_ids: { remove: rids.slice(0, DEVICE_EVENTS_PER_REQUEST) },
    })
    expect(some.status, some.raw).toBe(200)
    const each = await since(app, before, 'device.changed')
    expect(each).toHaveLength(DEVICE_EVENTS_PER_REQUEST)
    expect(each[0]?.data).toMatchObject({ action: 'updated', registration_id: rids[0], device: { tags: [] } })
    // DELETE /v3/tags/{tag}: the one device that still carried it.
    const last = await mark(app)
    expect((await call(app, 'DELETE', '/v3/tags/crowd')).status).toBe(200)
    expect((await since(app, last, 'device.changed')).map(e => e.data)).toEqual([
      { action: 'updated', registration_id: rids[n - 1], device: expect.objectContaining({ tags: [] }) },
    ])
  })
})

describe('fault.changed', () => {
  it('follows a fault armed, used by a vendor request until it runs out, and every fault disarmed', async () => {
    const { app } = await createTestApp()
    const after = await mark(app)
    const armed = await call(app, 'POST', '/_sandbox/faults', { path: '/v1/codes', code: 50019, times: 2 })
    expect(armed.status, armed.raw).toBe(200)
    const [first] = await since(app, after, 'fault.changed')
    expect(first?.data).toEqual({ action: 'armed', fault: armed.body, faults: 1 })
    expect((await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })).status).toBe(500)
    expect((await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })).status).toBe(500)
    await call(app, 'POST', '/_sandbox/faults', { path: '/v3/push', code: 1011 })
    expect((await call(app, 'DELETE', '/_sandbox/faults')).body).toEqual({ cleared: 1 })
    const events = (await since(app, after, 'fault.changed')).map(e => e.data)
    expect(events.map(d => [d.action, at(d.fault, 'remaining'), d.faults])).toEqual([
      ['armed', 2, 1],
      ['used', 1, 1],
      ['used', 0, 0],
      ['armed', 1, 1],
      ['disarmed', null, 0],
    ])
    expect(events[1]?.fault).toEqual({ ...armed.body, remaining: 1 })
  })
})

describe('push.sent and code.verified', () => {
  it('push.sent: a push accepted to an offline device, which no push.delivered follows', async () => {
    const { app } = await createTestApp()
    await call(app, 'PATCH', `/_sandbox/push/devices/${ANDROID_1}`, { online: false })
    const after = await mark(app)
    const push = await call(app, 'POST', '/v3/push', {
      platform: ['android'],
      audience: { registration_id: [ANDROID_1] },
      notification: { alert: 'later' },
      options: { sendno: 7 },
    })
    expect(push.status, push.raw).toBe(200)
    const [sent] = await since(app, after, 'push.sent')
    expect(sent).toEqual({
      seq: expect.any(Number),
      type: 'push.sent',
      data: {
        seq: sent?.seq,
        msg_id: push.body.msg_id,
        sendno: '7',
        cid: null,
        platform: ['android'],
        audience: { registration_id: [ANDROID_1] },
        notification: { alert: 'later' },
        message: null,
        broadcast: false,
        group_msgid: null,
        plan: null,
        created_at: '2026-01-01T00:00:00.000Z',
        withdrawn_at: null,
      },
    })
    expect(await since(app, after, 'push.delivered')).toEqual([])
    // Online again: the delivery follows as push.delivered, the push itself is not sent again.
    await call(app, 'PATCH', `/_sandbox/push/devices/${ANDROID_1}`, { online: true })
    expect((await since(app, after, 'push.delivered')).map(e => e.data.msg_id)).toEqual([push.body.msg_id])
    expect(await since(app, after, 'push.sent')).toHaveLength(1)
  })

  it('code.verified: each answer of POST /v1/codes/{msg_id}/valid, wrong, right, then verified before', async () => {
    const { app } = await createTestApp()
    const sent = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const msgId = sent.body.msg_id
    const { code } = (await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)).body
    const after = await mark(app)
    const wrong = code === '000000' ? '111111' : '000000'
    expect((await call(app, 'POST', `/v1/codes/${msgId}/valid`, { code: wrong })).body.is_valid).toBe(false)
    expect((await call(app, 'POST', `/v1/codes/${msgId}/valid`, { code })).body).toEqual({ is_valid: true })
    expect((await call(app, 'POST', `/v1/codes/${msgId}/valid`, { code })).body.error.code).toBe(50012)
    // An unknown msg_id names no code of the app: nothing to show.
    expect((await call(app, 'POST', '/v1/codes/123/valid', { code })).body.error.code).toBe(50026)
    const events = (await since(app, after, 'code.verified')).map(e => e.data)
    const at = '2026-01-01T00:00:00.000Z'
    const expiresAt = expect.any(String)
    expect(events).toEqual([
      {
        msg_id: msgId,
        mobile: MOBILE,
        is_valid: false,
        error: { code: 50010, message: 'invalid code' },
        verified_at: null,
        expires_at: expiresAt,
        checked_at: at,
      },
      {
        msg_id: msgId,
        mobile: MOBILE,
        is_valid: true,
        error: null,
        verified_at: at,
        expires_at: expiresAt,
        checked_at: at,
      },
      {
        msg_id: msgId,
        mobile: MOBILE,
        is_valid: false,
        error: { code: 50012, message: expect.any(String) },
        verified_at: at,
        expires_at: expiresAt,
        checked_at: at,
      },
    ])
  })
})

describe('what the operator does for an app', () => {
  it('is an event of that app, its request.completed marked as the operator’s', async () => {
    const { app } = await createTestApp()
    const appKey = newKey('op')
    const own = { authorization: basic(appKey, newKey('s')) }
    await call(app, 'GET', '/_sandbox/clock', undefined, own)
    const after = await mark(app, own)
    const operator = { authorization: basic('operator', 'operator'), 'x-sandbox-app': appKey }
    const made = await call(app, 'POST', '/_sandbox/faults', { path: '/v1/codes', code: 50019 }, operator)
    expect(made.status, made.raw).toBe(200)
    expect((await since(app, after, 'fault.changed', own)).map(e => e.data.action)).toEqual(['armed'])
    const [request] = await since(app, after, 'request.completed', own)
    expect(request?.data).toMatchObject({
      method: 'POST',
      path: '/_sandbox/faults',
      status: 200,
      operator: true,
    })
  })
})

describe('change events stay with their app', () => {
  it("another app's changes, a reset and an import bring no event of another app", async () => {
    const { app } = await createTestApp()
    const a = { authorization: basic(newKey('a'), newKey('s')) }
    const b = { authorization: basic(newKey('b'), newKey('s')) }
    await call(app, 'GET', '/_sandbox/clock', undefined, a)
    await call(app, 'GET', '/_sandbox/clock', undefined, b)
    const fromB = await mark(app, b)
    await call(app, 'POST', '/v1/templates', { template: '取件码{{code}}', type: 1, ttl: 60 }, a)
    await call(app, 'POST', `/v3/devices/${ANDROID_1}`, { tags: { add: ['a'] } }, a)
    await call(app, 'POST', '/_sandbox/faults', { path: '/v1/codes', code: 50019 }, a)
    await call(
      app,
      'POST',
      '/v3/push',
      { platform: 'all', audience: 'all', message: { msg_content: 'm' } },
      a,
    )
    const ofB = await call(app, 'GET', `/_sandbox/events?after=${fromB}&limit=1000`, undefined, b)
    expect(ofB.body.events.filter((e: Event) => e.type !== 'request.completed')).toEqual([])

    // A's reset: what follows in A's events is its reset, none of its configuration again.
    const fromA = await mark(app, a)
    expect((await call(app, 'POST', '/_sandbox/reset', undefined, a)).status).toBe(200)
    const afterReset = await call(app, 'GET', `/_sandbox/events?after=${fromA}&limit=1000`, undefined, a)
    expect(
      afterReset.body.events.map((e: Event) => e.type).filter((t: string) => t !== 'request.completed'),
    ).toEqual(['app.reset'])

    // B imports A's document: B's events from then on are B's own changes, not A's.
    await call(app, 'POST', '/v1/templates', { template: '{{code}}是验证码', type: 1, ttl: 60 }, a)
    const doc = (await call(app, 'GET', '/_sandbox/app/export', undefined, a)).body
    expect((await call(app, 'POST', '/_sandbox/app/import', doc, b)).status).toBe(200)
    const imported = await mark(app, b)
    await call(app, 'POST', '/v1/templates', { template: 'A的{{code}}', type: 1, ttl: 60 }, a)
    const own = await call(app, 'POST', '/v1/templates', { template: 'B的{{code}}', type: 1, ttl: 60 }, b)
    const later = await since(app, imported, 'template.changed', b)
    expect(later.map(e => e.data.temp_id)).toEqual([own.body.temp_id])
  })
})

describe('change events on the stream (Server-Sent Events)', () => {
  it('template.changed and device.changed arrive on an open stream, filtered by kind', async () => {
    const s = await listening()
    const templates = await openStream(s.url, s.agent, '/_sandbox/events?kind=template.changed')
    const devices = await openStream(s.url, s.agent, '/_sandbox/events?kind=device.changed')
    const made = await s.http('POST', '/v1/templates', { template: '取件码{{code}}', type: 1, ttl: 60 })
    await s.http('POST', `/v3/devices/${ANDROID_1}`, { alias: 'bob' })
    const [t] = await templates.take(1)
    expect(t).toMatchObject({
      event: 'template.changed',
      json: { action: 'created', temp_id: made.body.temp_id },
    })
    const [d] = await devices.take(1)
    expect(d).toMatchObject({
      event: 'device.changed',
      json: { action: 'updated', registration_id: ANDROID_1, device: { alias: 'bob' } },
    })
  })
})

import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import { create, single } from '../push/schedule-helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from '../scheduler/receiver.js'
import { sendTimeIn } from '../sms/schedule-helpers.js'
import { MOBILE, OTHER_MOBILE } from '../sms/support.js'

// GET /_sandbox/events without Accept: text/event-stream: the app's events as a list like every
// other (issue 12 §4, §6), each event's data shaped like the matching inspection item.

interface Event {
  seq: number
  type: string
  data: Record<string, unknown>
}

const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
const get = async (app: SandboxApp, url: string) => {
  const res = await call(app, 'GET', url, undefined, auth)
  expect(res.status, res.raw).toBe(200)
  return res.body
}
const types = (events: Event[]) => [...new Set(events.map(e => e.type))].sort()

/** Something of every kind: the sends, a click, reviews, both kinds of schedule, a clock move, a PATCH. */
async function everything(app: SandboxApp, receiverUrl: string) {
  const send = (method: 'POST' | 'PATCH', url: string, body?: unknown) => call(app, method, url, body, auth)
  const code = await send('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }) // sms.sent
  await send('POST', '/_sandbox/sms/replies', { mobile: MOBILE, content: 'TD' }) // sms.reply
  const push = await send('POST', '/v3/push', {
    platform: 'all',
    audience: { registration_id: [ANDROID_1] },
    message: { msg_content: 'm' },
    callback: { url: receiverUrl, type: 2, params: { k: 'v' } },
  }) // push.delivered
  const clicks = `/_sandbox/push/messages/${push.body.msg_id}/clicks`
  await send('POST', clicks, { registration_id: ANDROID_1 }) // push.clicked (and the clicked callback)
  await send('POST', clicks, { registration_id: ANDROID_1 }) // a repeat: nothing new
  await send('POST', '/_sandbox/sms/templates/2/review', { status: 2, refuse_reason: 'no' }) // review.decided
  const sendTime = await sendTimeIn(app, 60_000, auth)
  await send('POST', '/v1/schedule', {
    send_time: sendTime,
    mobile: OTHER_MOBILE,
    temp_id: 1,
    temp_para: { code: '1' },
  })
  const task = await create(app, single('2026-01-01 08:01:30'), auth) // Beijing: 90 s from the start
  // sms.report, callback.attempt, schedule.fired (both), clock.moved…
  await send('POST', '/_sandbox/clock', { advance_ms: 120_000 })
  await send('PATCH', '/_sandbox/app', { balances: { industry: 5 } }) // app.changed
  return { code: code.body.msg_id as string, push: push.body.msg_id as string, task }
}

describe('GET /_sandbox/events (a list, without Accept: text/event-stream)', () => {
  it('carries every kind of event, each shaped like its inspection item, newest first', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url) })
    const ids = await everything(app, receiver.url)

    const all = await get(app, '/_sandbox/events?limit=1000')
    expect(types(all.events)).toEqual(
      [
        'sms.sent',
        'sms.reply',
        'push.sent',
        'push.delivered',
        'push.clicked',
        'review.decided',
        'clock.moved',
        'sms.report',
        'callback.attempt',
        'schedule.changed',
        'schedule.fired',
        'app.changed',
        'request.completed',
      ].sort(),
    )
    const seqs = all.events.map((e: Event) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    expect(all.next_after).toBe(all.events[0].seq)
    const of = (type: string) => all.events.filter((e: Event) => e.type === type)
    const [changed] = of('app.changed')
    // The PATCH's app.changed, then its own request.completed: the newest event.
    expect(changed.seq).toBe(all.next_after - 1)
    expect(all.events[0]).toMatchObject({
      type: 'request.completed',
      data: { method: 'PATCH', path: '/_sandbox/app', status: 200 },
    })
    // As GET shows it, without the developer's secret: no secret travels on a stream (issue 33).
    const { developer, ...shown } = (await get(app, '/_sandbox/app')) as {
      developer: Record<string, unknown>
    }
    const { dev_secret: _, ...publicDeveloper } = developer
    expect(changed.data).toEqual({ ...shown, developer: publicDeveloper })
    expect(changed.data).toMatchObject({ balances: { industry: 5 } })
    expect(of('review.decided')[0].data).toEqual({
      kind: 'template',
      temp_id: 2,
      status: 2,
      refuse_reason: 'no',
      decided_at: expect.any(String),
    })
    expect(of('push.clicked')).toEqual([
      {
        seq: expect.any(Number),
        type: 'push.clicked',
        data: {
          msg_id: ids.push,
          registration_id: ANDROID_1,
          platform: 'android',
          kind: 'message',
          clicked_at: '2026-01-01T00:00:00.000Z',
        },
      },
    ])
    // One per firing, SMS and JPush schedules alike, after what the firing sent.
    const fired = of('schedule.fired').map((e: Event) => e.data)
    expect(fired).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ api: 'sms', sent: 1, failed: 0, schedule_id: expect.any(String) }),
        {
          api: 'push',
          schedule_id: ids.task,
          fired_at: '2026-01-01T00:01:30.000Z',
          msg_id: expect.stringMatching(/^\d{17}$/),
          error: null,
        },
      ]),
    )
    const firing = (await get(app, `/_sandbox/push/schedules?schedule_id=${ids.task}`)).schedules[0]
      .firings[0]
    expect(firing.msg_id).toBe(fired.find((f: { api: string }) => f.api === 'push').msg_id)
    expect(of('callback.attempt').map((e: Event) => e.data.type)).toEqual(
      expect.arrayContaining(['SMS_REPORT', 'SMS_REPLY', 'JPUSH_CLICKED']),
    )
    expect(of('push.delivered').map((e: Event) => e.data)).toContainEqual(
      expect.objectContaining({
        msg_id: ids.push,
        registration_id: ANDROID_1,
        message: { msg_content: 'm' },
      }),
    )
    expect(of('sms.reply')[0].data).toEqual({
      seq: of('sms.reply')[0].seq,
      mobile: MOBILE,
      content: 'TD',
      reply_time: expect.any(String),
    })
    expect(
      (await get(app, '/_sandbox/events?kind=sms.sent')).events.map((e: Event) => e.data.msg_id),
    ).toContain(ids.code)
  })

  it('a push callback is listed, filtered and attempted like an SMS one', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url) })
    const ids = await everything(app, receiver.url)
    const clicked = await get(app, `/_sandbox/callbacks?kind=JPUSH_CLICKED`)
    expect(clicked.callbacks).toEqual([
      expect.objectContaining({
        type: 'JPUSH_CLICKED',
        url: receiver.url,
        state: 'delivered',
        data: {
          msg_id: ids.push,
          callback_type: 2,
          event: 'clicked',
          params: { k: 'v' },
          rows: [{ registration_id: ANDROID_1, platform: 'android', time: 1767225600 }],
        },
      }),
    ])
    // Once: the repeated click added nothing.
    expect(receiver.received.filter(r => r.text.includes('"clicked"'))).toHaveLength(1)
    const byDevice = await get(app, `/_sandbox/callbacks?registration_id=${ANDROID_1}`)
    expect(byDevice.callbacks.map((c: { type: string }) => c.type)).toEqual(['JPUSH_CLICKED'])
    const byMsg = await get(app, `/_sandbox/callbacks?msg_id=${ids.push}`)
    expect(byMsg.callbacks.map((c: { type: string }) => c.type)).toEqual(['JPUSH_CLICKED'])
    const sms = await get(app, `/_sandbox/callbacks?msg_id=${ids.code}`)
    expect(sms.callbacks.map((c: { type: string; url: null }) => [c.type, c.url])).toEqual([
      ['SMS_REPORT', null],
    ])
  })

  it('a reset leaves only its own app.reset, and seqs go on from where they were', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url) })
    await everything(app, receiver.url)
    const before = await get(app, '/_sandbox/events')
    const reset = await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    expect(reset.status).toBe(200)

    // Its app.reset, then the journal's entry of the reset itself (request.completed).
    const after = await get(app, '/_sandbox/events?limit=1000')
    expect(after).toEqual({
      events: [
        {
          seq: before.next_after + 2,
          type: 'request.completed',
          data: expect.objectContaining({ method: 'POST', path: '/_sandbox/reset', status: 200 }),
        },
        {
          seq: before.next_after + 1,
          type: 'app.reset',
          data: { ...reset.body, developer: { ...reset.body.developer, dev_secret: undefined } },
        },
      ],
      next_after: before.next_after + 2,
    })
    // A client following after= from before the reset reads on without a gap or a repeat.
    expect((await get(app, `/_sandbox/events?after=${before.next_after}`)).events).toHaveLength(2)
    expect((await get(app, '/_sandbox/sms/messages')).messages).toEqual([])
    const sent = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }, auth)
    const next = await get(app, `/_sandbox/sms/messages?after=${before.next_after}`)
    expect(next.messages).toEqual([
      expect.objectContaining({ seq: before.next_after + 3, msg_id: sent.body.msg_id }),
    ])
    // After the message, its request's entry; after that, nothing yet: a wait ends empty.
    const own = await get(app, `/_sandbox/events?after=${next.next_after}`)
    expect(own.events).toEqual([
      expect.objectContaining({
        type: 'request.completed',
        data: expect.objectContaining({ path: '/v1/codes' }),
      }),
    ])
    const tail = await get(app, `/_sandbox/events?after=${own.next_after}&wait=50`)
    expect(tail).toEqual({ events: [], next_after: own.next_after })
  })
})

describe('the OpenAPI document of waiting and events', () => {
  it('shows the list parameters, both answers of /_sandbox/events and their refusals', async () => {
    const { app } = await createTestApp()
    const doc = (await call(app, 'GET', '/_sandbox/openapi.json')).body
    const events = doc.paths['/_sandbox/events'].get
    expect(Object.keys(events.responses['200'].content)).toEqual(['application/json', 'text/event-stream'])
    expect(events.responses['401'].description).toContain('`90003`')
    expect(events.responses['429'].description).toContain('`90060`')
    const params = (path: string) =>
      Object.fromEntries(
        doc.paths[path].get.parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]),
      )
    expect(params('/_sandbox/sms/messages')).toMatchObject({
      after: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      wait: { type: 'integer', minimum: 0, maximum: 30000 },
      kind: { type: 'string', enum: ['code', 'voice_code', 'template'] },
    })
    expect(Object.keys(params('/_sandbox/push/schedules'))).toEqual(
      expect.not.arrayContaining(['after', 'wait']),
    )
    expect(doc.paths['/_sandbox/events/token'].post.summary).toContain('EventSource')
  })
})

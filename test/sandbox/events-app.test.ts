import { describe, expect, it, vi } from 'vitest'
import { APP_KEY, basic, newKey } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import { MOBILE } from '../sms/support.js'
import { listening, openStream } from './real-port.js'

// The event stream as the app itself changes (issue 12 §1, §2, §4, §5), over a real port: a PATCH,
// a reset, a removal, a click.

type Sandbox = Awaited<ReturnType<typeof listening>>

const streams = (s: Sandbox, n: number, appKey = APP_KEY) =>
  vi.waitFor(() => expect(s.app.hub.count(appKey).subscribers).toBe(n), { timeout: 10_000 })

describe('GET /_sandbox/events as the app changes', () => {
  it('app.changed and app.reset carry the app as GET /_sandbox/app shows it; the stream goes on', async () => {
    const s = await listening()
    const stream = await openStream(s.url, s.agent)
    await streams(s, 1)
    const sent = await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const patched = await s.http('PATCH', '/_sandbox/app', { blacklisted: true })
    expect(patched.status).toBe(200)
    const reset = await s.http('POST', '/_sandbox/reset')
    expect(reset.status).toBe(200)
    const after = await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    // Each request's entry in the journal (request.completed) follows what it did.
    const events = await stream.take(8)
    expect(events.map(e => [e.id, e.event])).toEqual([
      ['1', 'sms.sent'],
      ['2', 'request.completed'],
      ['3', 'app.changed'],
      ['4', 'request.completed'],
      ['5', 'app.reset'],
      ['6', 'request.completed'],
      ['7', 'sms.sent'],
      ['8', 'request.completed'],
    ])
    expect(events[0]?.json.msg_id).toBe(sent.body.msg_id)
    // As GET shows it, without the developer's secret: no secret travels on a stream (issue 33).
    const shown = (body: { developer: Record<string, unknown> }) => {
      const { dev_secret: _, ...developer } = body.developer
      return { ...body, developer }
    }
    expect(events[2]?.json).toEqual(shown(patched.body))
    expect(events[2]?.json.blacklisted).toBe(true)
    expect(events[4]?.json).toEqual(shown(reset.body))
    expect(events[4]?.json.blacklisted).toBe(false)
    expect(events[5]?.json).toMatchObject({ seq: 6, method: 'POST', path: '/_sandbox/reset' })
    expect(events[6]?.json).toMatchObject({ seq: 7, msg_id: after.body.msg_id })
    // Resuming from before the reset reads what is left: the reset and what came after it.
    const resumed = await openStream(s.url, s.agent, '/_sandbox/events', { 'last-event-id': '1' })
    expect((await resumed.take(4)).map(e => e.event)).toEqual([
      'app.reset',
      'request.completed',
      'sms.sent',
      'request.completed',
    ])
  })

  it('a removal for good ends the app’s streams; the default app, made again at once, is reset', async () => {
    const s = await listening()
    const appKey = newKey('gone')
    const own = { authorization: basic(appKey, newKey('s')) }
    expect((await s.http('GET', '/_sandbox/clock', undefined, own)).status).toBe(200) // provisioned
    const doomed = await openStream(s.url, s.agent, '/_sandbox/events', own)
    const kept = await openStream(s.url, s.agent)
    await streams(s, 1, appKey)
    await streams(s, 1)
    expect((await s.http('DELETE', '/_sandbox/app', undefined, own)).body.recreated).toBe(false)
    expect(await doomed.ended()).toBe(true)
    expect(doomed.comments).toContain('the app was removed')
    await streams(s, 0, appKey)

    const again = await s.http('DELETE', '/_sandbox/app')
    expect(again.body).toEqual({ app_key: APP_KEY, deleted: true, recreated: true })
    expect(await kept.take(1)).toEqual([expect.objectContaining({ id: '1', event: 'app.reset' })])
    expect(s.app.hub.count(APP_KEY).subscribers).toBe(1)
  })

  it('push.clicked once per device and push, as POST …/clicks answered it', async () => {
    const s = await listening()
    const push = await s.http('POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [ANDROID_1] },
      notification: { alert: 'open me' },
    })
    const stream = await openStream(s.url, s.agent, '/_sandbox/events?after=0')
    const clicks = `/_sandbox/push/messages/${push.body.msg_id}/clicks`
    const click = await s.http('POST', clicks, { registration_id: ANDROID_1 })
    await s.http('POST', clicks, { registration_id: ANDROID_1 }) // the notification left the tray
    await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const events = (await stream.take(8)).filter(e => e.event !== 'request.completed')
    expect(events.map(e => e.event)).toEqual(['push.sent', 'push.delivered', 'push.clicked', 'sms.sent'])
    expect(events[2]?.json).toEqual(click.body)
  })
})

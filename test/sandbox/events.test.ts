import { connect } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { APP_KEY, basic, defaultAuth, newKey } from '../helpers.js'
import { MOBILE } from '../sms/support.js'
import { listening, openStream } from './real-port.js'

// GET /_sandbox/events as Server-Sent Events (issue 12 §4), over a real port.

type Sandbox = Awaited<ReturnType<typeof listening>>

const streams = (s: Sandbox, n: number) =>
  vi.waitFor(() => expect(s.app.hub.count(APP_KEY).subscribers).toBe(n), { timeout: 10_000 })

describe('GET /_sandbox/events (text/event-stream)', () => {
  it('streams what happens as it happens, each event with its seq as id and its item as data', async () => {
    const s = await listening()
    const stream = await openStream(s.url, s.agent)
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    const sent = await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    await s.http('POST', '/_sandbox/clock', { advance_ms: 2000 })
    // Each request's entry in the journal follows what it did (request.completed).
    const [message, sending, report, moved, moving] = await stream.take(5)
    expect(message).toMatchObject({ id: '1', event: 'sms.sent' })
    expect(sending).toMatchObject({ id: '2', event: 'request.completed' })
    expect(sending?.json).toMatchObject({ seq: 2, method: 'POST', path: '/v1/codes', status: 200 })
    expect(sending?.json.ids).toEqual({ msg_id: [sent.body.msg_id] })
    expect(message?.json).toMatchObject({
      seq: 1,
      msg_id: sent.body.msg_id,
      kind: 'code',
      code: expect.any(String),
    })
    expect(message?.json.content).toContain(String(message?.json.code))
    expect(report).toMatchObject({ id: '3', event: 'sms.report' })
    expect(report?.json).toEqual({
      seq: 3,
      msg_id: sent.body.msg_id,
      mobile: MOBILE,
      status: 4001,
      receive_time: new Date(s.clock.now() + 2000).toISOString(),
    })
    expect(moved).toMatchObject({
      id: '4',
      event: 'clock.moved',
      json: { now: s.clock.now() + 2000, offset_ms: 2000 },
    })
    expect(moving).toMatchObject({ id: '5', event: 'request.completed', json: { path: '/_sandbox/clock' } })
    // The same items the lists show.
    const listed = await s.http('GET', '/_sandbox/sms/messages')
    expect(listed.body.messages[0]).toEqual(message?.json)
    await stream.close()
    await streams(s, 0)
  })

  it('resumes after Last-Event-ID with what happened while nobody listened', async () => {
    const s = await listening()
    const ids: string[] = []
    for (const mobile of ['13800138001', '13800138002', '13800138003'])
      ids.push((await s.http('POST', '/v1/codes', { mobile, temp_id: 1 })).body.msg_id)
    // Each send took two seqs: its message's (1, 3, 5), its request's in the journal (2, 4, 6).
    const resumed = await openStream(s.url, s.agent, '/_sandbox/events', { 'last-event-id': '1' })
    const [first, second, third] = await resumed.take(3)
    expect([first?.id, second?.id, third?.id]).toEqual(['2', '3', '4'])
    expect([first?.event, second?.event, third?.event]).toEqual([
      'request.completed',
      'sms.sent',
      'request.completed',
    ])
    expect(second?.json.msg_id).toBe(ids[1])
    // Of one kind only, from where it left off.
    const texts = await openStream(s.url, s.agent, '/_sandbox/events?kind=sms.sent', { 'last-event-id': '1' })
    expect((await texts.take(2)).map(e => [e.id, e.json.msg_id])).toEqual([
      ['3', ids[1]],
      ['5', ids[2]],
    ])
    // A new EventSource cannot send the header: after= starts it instead; no id starts from now.
    const fromQuery = await openStream(s.url, s.agent, '/_sandbox/events?after=5')
    expect((await fromQuery.take(1))[0]?.id).toBe('6')
    const fromNow = await openStream(s.url, s.agent)
    await s.http('POST', '/_sandbox/sms/replies', { mobile: MOBILE, content: 'hi' })
    expect(await fromNow.take(1)).toEqual([
      expect.objectContaining({
        id: '7',
        event: 'sms.reply',
        json: expect.objectContaining({ seq: 7, content: 'hi' }),
      }),
    ])
  })

  it('refuses a Last-Event-ID that is not a seq', async () => {
    const s = await listening()
    const res = await s.http('GET', '/_sandbox/events', undefined, {
      accept: 'text/event-stream',
      'last-event-id': 'abc',
    })
    expect(res).toEqual({
      status: 400,
      body: {
        error: {
          code: 90020,
          message: '"Last-Event-ID": must be a seq (a whole number, 0 or more)',
        },
      },
    })
  })

  it('opens with a token where an EventSource cannot send credentials, and never logs it', async () => {
    const s = await listening()
    const issued = await s.http('POST', '/_sandbox/events/token')
    expect(issued.status).toBe(200)
    const { token } = issued.body
    expect(token).toMatch(new RegExp(`^${APP_KEY}\\.\\d+\\.[\\w-]+$`))
    const stream = await openStream(s.url, s.agent, `/_sandbox/events?token=${token}`, { authorization: '' })
    expect(stream.status).toBe(200)
    await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    expect((await stream.take(1))[0]?.event).toBe('sms.sent')
    for (const bad of ['nope', `${token}x`, token.replace(APP_KEY, 'a'.repeat(24))]) {
      const res = await s.http('GET', `/_sandbox/events?token=${encodeURIComponent(bad)}`, undefined, {
        authorization: '',
      })
      expect(res.status, bad).toBe(401)
      expect(res.body.error.code).toBe(90003)
    }
    await s.http('GET', `/_sandbox/events?token=${token}&limit=1`, undefined, { authorization: '' })
    expect(s.log()).toContain('/_sandbox/events?token=[redacted]&limit=1')
    expect(s.log()).not.toContain(token.split('.')[2])
  })

  it('sends heartbeats while nothing happens', async () => {
    const s = await listening({ heartbeatMs: 50 })
    const stream = await openStream(s.url, s.agent)
    await stream.until(() => stream.comments.filter(c => c === 'heartbeat').length >= 2, 'two heartbeats')
    expect(stream.events).toEqual([])
  })

  it('holds at most maxSubscribers streams per app', async () => {
    const s = await listening({ maxSubscribers: 1 })
    await openStream(s.url, s.agent)
    const second = await s.http('GET', '/_sandbox/events', undefined, { accept: 'text/event-stream' })
    expect(second.status).toBe(429)
    expect(second.body.error.code).toBe(90060)
  })

  it('holds at most MAX_EVENT_STREAMS_PER_CLIENT over all apps of one client (429), and MAX_EVENT_STREAMS in all (503)', async () => {
    const s = await listening({}, { maxEventStreamsPerClient: 1, maxEventStreams: 10 })
    await openStream(s.url, s.agent)
    const other = { authorization: basic(newKey('e'), newKey('s')), accept: 'text/event-stream' }
    const refused = await s.http('GET', '/_sandbox/events', undefined, other)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toEqual({
      code: 90060,
      message:
        'too many event streams from 127.0.0.1: at most 1 at a time per client (MAX_EVENT_STREAMS_PER_CLIENT)',
    })
    expect(s.app.held.counts()).toMatchObject({ eventStreams: 1, refused: { 'event streams per client': 1 } })

    const t = await listening({}, { maxEventStreamsPerClient: 5, maxEventStreams: 1 })
    await openStream(t.url, t.agent)
    const full = await t.http('GET', '/_sandbox/events', undefined, other)
    expect(full.status).toBe(503)
    expect(full.body.error.message).toBe(
      'too many event streams in the sandbox: at most 1 at a time (MAX_EVENT_STREAMS)',
    )
  })

  it('with MAX_EVENT_STREAMS taken, an app that holds none ends the oldest stream of the app holding the most (issue 33)', async () => {
    const s = await listening({}, { maxEventStreamsPerClient: 10, maxEventStreams: 3 })
    // One app holds all three; another app (same address: apps are told apart, not addresses).
    const hog = [
      await openStream(s.url, s.agent),
      await openStream(s.url, s.agent),
      await openStream(s.url, s.agent),
    ]
    const other = { authorization: basic(newKey('e'), newKey('s')) }
    const mine = await openStream(s.url, s.agent, '/_sandbox/events', other)
    expect(mine.status).toBe(200)
    expect(await hog[0]!.ended()).toBe(true)
    expect(hog[0]!.comments.at(-1)).toBe(
      'the sandbox holds its most event streams (MAX_EVENT_STREAMS): this one ended to make room for an app holding fewer; reconnect with Last-Event-ID',
    )
    expect(s.app.hub.count(APP_KEY).subscribers).toBe(2)
    expect(s.app.held.counts()).toMatchObject({
      eventStreams: 3,
      refused: { 'event streams taken back': 1 },
    })
    // Now each holds about as many: the hog's next is refused, nobody else's ended.
    const again = await s.http('GET', '/_sandbox/events', undefined, { accept: 'text/event-stream' })
    expect(again.status).toBe(503)
    expect(s.app.hub.count(APP_KEY).subscribers).toBe(2)
  })

  it('ends a stream at its maximum life, and the client resumes with Last-Event-ID', async () => {
    const s = await listening({ stream: { maxLifeMs: 300 } })
    // Texts only: each request's journal entry (request.completed) is on the stream too.
    const stream = await openStream(s.url, s.agent, '/_sandbox/events?kind=sms.sent')
    await s.http('POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const [first] = await stream.take(1)
    expect(await stream.ended()).toBe(true)
    expect(stream.comments.at(-1)).toBe(
      'this stream reached its maximum life of 300 ms (EVENT_STREAM_MAX_LIFE_MS); reconnect with Last-Event-ID',
    )
    await streams(s, 0)
    await s.http('POST', '/v1/codes', { mobile: '13800138009', temp_id: 1 })
    const resumed = await openStream(s.url, s.agent, '/_sandbox/events?kind=sms.sent', {
      'last-event-id': first!.id,
    })
    const [next] = await resumed.take(1)
    expect(next?.json.mobile).toBe('13800138009')
  })

  it('ends every stream at once when the sandbox closes', async () => {
    const s = await listening()
    const stream = await openStream(s.url, s.agent)
    await streams(s, 1)
    await s.app.close()
    expect(await stream.ended()).toBe(true)
  })

  it('drops a client that stops reading, with a final event, and never holds up the API', async () => {
    const s = await listening({ stream: { maxLag: 20 } })
    // Big events: 300 deliveries of a ~3.7 KB push fill the kernel's socket buffers (a few MB).
    const rids: string[] = []
    for (let i = 0; i < 300; i++)
      rids.push(
        (await s.http('POST', '/_sandbox/push/devices', { platform: 'android' })).body.registration_id,
      )
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1')
    await new Promise(resolve => socket.once('connect', resolve))
    socket.write(
      `GET /_sandbox/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: ${defaultAuth}\r\n\r\n`,
    )
    socket.pause() // never reads: what the server sends piles up in the kernel, then in its own buffer
    await streams(s, 1)
    const big = {
      platform: 'all',
      audience: { registration_id: rids },
      message: { msg_content: 'x'.repeat(3700) },
    }
    // Every push is answered while the client reads nothing, until the server lets it go.
    for (let i = 0; i < 20 && s.app.hub.count(APP_KEY).subscribers > 0; i++)
      expect((await s.http('POST', '/v3/push', big)).status).toBe(200)
    await streams(s, 0)
    // When the client reads again: what was buffered, the final event, and the end of the stream.
    let text = ''
    socket.on('data', chunk => {
      text += String(chunk)
    })
    socket.resume()
    await new Promise(resolve => socket.once('end', resolve))
    const final = text.slice(text.lastIndexOf('event: '))
    expect(final).toMatch(
      /^event: dropped\ndata: \{"reason":"the client fell more than 20 events behind; reconnect with Last-Event-ID","last_event_id":\d+\}\n\n\r\n0\r\n\r\n$/,
    )
    socket.destroy()
  })
})

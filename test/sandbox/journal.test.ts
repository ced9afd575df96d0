import { describe, expect, it, vi } from 'vitest'
import { PNG, postForm, pythonForm } from '../fixtures/sign-forms.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { listening } from './real-port.js'

// The request journal (GET /_sandbox/requests): what each request of an app asked, what it was
// answered, and why the sandbox refused it.

const tenant = () => {
  const appKey = newKey('j')
  return { appKey, secret: newKey('s'), auth: { authorization: '' } }
}
const app$ = () => {
  const t = tenant()
  t.auth.authorization = basic(t.appKey, t.secret)
  return t
}
const notice = (mobile = '13800138000') => ({ mobile, temp_id: 2, temp_para: { order: 'J', days: '1' } })
type Entry = Record<string, unknown> & { path: string; method: string; ids: Record<string, string[]> }

describe('GET /_sandbox/requests', () => {
  it('records every /v1 and /v3 call and /_sandbox write, with its answer, ids and reason', async () => {
    const { app } = await createTestApp()
    const a = app$()
    const sent = await call(app, 'POST', '/v1/messages', notice(), a.auth)
    const schedule = await call(
      app,
      'POST',
      '/v1/schedule',
      { ...notice(), send_time: '2026-01-02 08:00:00' },
      a.auth,
    )
    await call(app, 'GET', `/v1/schedule/${schedule.body.schedule_id}`, undefined, a.auth)
    await call(app, 'GET', '/v1/nothing', undefined, a.auth) // an unknown path, but this app's
    await call(app, 'GET', '/_sandbox/clock', undefined, a.auth) // a read of the control plane: not kept
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 1000 }, a.auth)
    await call(
      app,
      'POST',
      '/v3/push',
      { platform: 'all', audience: { alias: ['nobody'] }, notification: { alert: 'x' } },
      a.auth,
    )

    const { body } = await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)
    const entries = body.requests as Entry[]
    expect(entries.map(e => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /v3/push 400',
      'POST /_sandbox/clock 200',
      'GET /v1/nothing 404',
      `GET /v1/schedule/${schedule.body.schedule_id} 200`,
      'POST /v1/schedule 200',
      'POST /v1/messages 200',
    ])
    const [push, clock, unknown, read, scheduled, message] = entries
    expect(message).toMatchObject({
      surface: 'sms',
      code: null,
      message: null,
      reason: null,
      ids: { msg_id: [sent.body.msg_id] },
      client: '127.0.0.1',
      user_agent: 'lightMyRequest',
      operator: false,
      request_body: JSON.stringify(notice()),
      answer_body: JSON.stringify(sent.body),
      at: '2026-01-01T00:00:00.000Z',
    })
    expect(message!.duration_ms).toBeTypeOf('number')
    expect(scheduled!.ids.schedule_id).toEqual([schedule.body.schedule_id])
    expect(read!.ids).toEqual({ schedule_id: [schedule.body.schedule_id] })
    expect(unknown).toMatchObject({ code: 50016, message: 'api not found', reason: 'API does not exist' })
    expect(clock).toMatchObject({ surface: 'sandbox', at: '2026-01-01T00:00:01.000Z' })
    expect(push).toMatchObject({
      surface: 'push',
      code: 1011,
      reason:
        'no device of the app matches audience alias ["nobody"] with a notification for android, ios, hmos, quickapp, winphone',
    })
    // The seq of each entry comes right after what its request did.
    expect(message!.seq).toBe(2)

    // Filters: method, path prefix, status, code, msg_id (created, or named in the path).
    const list = async (q: string) =>
      ((await call(app, 'GET', `/_sandbox/requests?${q}`, undefined, a.auth)).body.requests as Entry[]).map(
        e => e.path,
      )
    expect(await list('method=get')).toEqual([unknown!.path, read!.path])
    expect(await list('path=/v1/schedule')).toEqual([read!.path, scheduled!.path])
    expect(await list('status=404')).toEqual(['/v1/nothing'])
    expect(await list('code=1011')).toEqual(['/v3/push'])
    expect(await list(`msg_id=${sent.body.msg_id}`)).toEqual(['/v1/messages'])
    expect(await list(`msg_id=${schedule.body.schedule_id}`)).toEqual([read!.path, scheduled!.path])
    expect(await list('limit=1')).toEqual(['/v3/push'])
    expect((await call(app, 'GET', '/_sandbox/requests?status=99', undefined, a.auth)).body.error).toEqual({
      code: 90020,
      message: '"status": must be an HTTP status (100 to 599)',
    })
  })

  it("records a refusal of an existing app's credentials, not a stranger's", async () => {
    const { app } = await createTestApp()
    const a = app$()
    await call(app, 'GET', '/_sandbox/app', undefined, a.auth) // provisioned
    const wrong = { authorization: basic(a.appKey, 'x'.repeat(24)) }
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, wrong)).status).toBe(401)
    const stranger = { authorization: basic('nobody0000000000000000000'.slice(0, 24), 'short') }
    await call(app, 'GET', '/v1/accounts/app', undefined, stranger)
    const { body } = await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)
    expect(body.requests).toEqual([
      expect.objectContaining({
        path: '/v1/accounts/app',
        status: 401,
        code: 50002,
        reason: `the secret does not match app ${a.appKey}'s masterSecret`,
      }),
    ])
  })

  it("keeps a stranger's wrong-secret calls in a ring of their own: they never push the app's entries out", async () => {
    const { app } = await createTestApp()
    const victim = app$()
    const sends = []
    for (let i = 0; i < 20; i++) {
      const sent = await call(
        app,
        'POST',
        '/v1/messages',
        notice(`138001380${String(i).padStart(2, '0')}`),
        victim.auth,
      )
      sends.push(sent.body.msg_id as string)
    }
    // Someone who knows only the appKey, from an address of its own, on every surface.
    const wrong = { authorization: basic(victim.appKey, 'x'.repeat(24)) }
    const paths = ['/v1/messages', '/v3/push', '/_sandbox/clock'] as const
    for (let i = 0; i < 1_100; i++) {
      const res = await app.inject({
        method: 'POST',
        url: paths[i % 3]!,
        headers: { ...wrong, 'content-type': 'application/json' },
        payload: '{}',
        remoteAddress: '10.0.0.66',
      })
      expect(res.statusCode).toBeGreaterThanOrEqual(400)
    }
    const listed = await call(app, 'GET', '/_sandbox/requests?limit=1000', undefined, victim.auth)
    const entries = listed.body.requests as Entry[]
    const own = entries.filter(e => e.client !== '10.0.0.66')
    const strangers = entries.filter(e => e.client === '10.0.0.66')
    // Every one of its own 20 sends is still there; the strangers' newest 50 show who knocked.
    expect(own.map(e => e.ids?.msg_id?.[0] ?? JSON.parse(e.answer_body as string).msg_id).reverse()).toEqual(
      sends,
    )
    expect(strangers).toHaveLength(50)
    expect(strangers[0]).toMatchObject({
      status: 401,
      reason: `the secret does not match app ${victim.appKey}'s masterSecret`,
    })
    // The operator sees how many times they knocked, all of them.
    const apps = await call(app, 'GET', `/_sandbox/apps?prefix=${victim.appKey}`, undefined, {
      authorization: basic('operator', 'operator'),
    })
    expect(apps.body.apps[0].counts).toMatchObject({ requests: 1_120, refusals: 1_100 })
  })

  it('keeps bodies as text, at most 4 KB, with secrets redacted; a form is described', async () => {
    const { app } = await createTestApp()
    const a = app$()
    const long = JSON.stringify({ template: `长${'x'.repeat(5000)}`, type: 2 })
    await call(app, 'POST', '/v1/templates', long, a.auth)
    await call(app, 'PATCH', '/_sandbox/app', { balances: { voice: 1 } }, a.auth)
    await call(
      app,
      'PUT',
      '/_sandbox/push/group',
      { group_key: newKey('g'), master_secret: newKey('m') },
      a.auth,
    )
    await call(app, 'POST', '/_sandbox/events/token', undefined, a.auth)
    await postForm(
      app,
      '/v1/sign',
      pythonForm({ sign: '日志', images: [{ name: 'a.png', bytes: PNG }] }),
      a.auth.authorization,
    )

    const entries = (await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)).body.requests as Entry[]
    const [form, token, group, patched, template] = entries
    expect(template!.request_body).toBe(`${long.slice(0, 4096)}… [${Buffer.byteLength(long)} bytes in all]`)
    expect(patched!.answer_body).toContain('"dev_secret":"[redacted]"')
    expect(group!.request_body).toContain('"master_secret":"[redacted]"')
    expect(token!.answer_body).toMatch(/^\{"token":"\[redacted\]","expires_at":"/)
    expect(form!.request_body).toMatch(/^\[\d+ bytes of multipart\/form-data; boundary=.+\]$/)
    const text = JSON.stringify(entries)
    expect(text).not.toContain(a.secret)
  })

  it('keeps every id of an answer too long to keep whole', async () => {
    const { app } = await createTestApp()
    const a = app$()
    const recipients = Array.from({ length: 300 }, (_, i) => ({
      mobile: `138${String(i).padStart(8, '0')}`,
      temp_para: { order: 'B', days: '1' },
    }))
    const sent = await call(app, 'POST', '/v1/messages/batch', { temp_id: 2, recipients }, a.auth)
    const ids = (sent.body.recipients as Array<{ msg_id: string }>).map(r => r.msg_id)
    expect(ids).toHaveLength(300)
    const [entry] = (await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)).body.requests as Entry[]
    expect(entry!.answer_body).toMatch(/… \[\d+ bytes in all\]$/)
    expect(entry!.ids.msg_id).toEqual(ids)
    const last = await call(app, 'GET', `/_sandbox/requests?msg_id=${ids.at(-1)}`, undefined, a.auth)
    expect(last.body.requests).toHaveLength(1)
  })

  it('keeps the newest JOURNAL_MAX_PER_APP of each app; a reset clears it', async () => {
    const { app } = await createTestApp({ journalMaxPerApp: 3 })
    const a = app$()
    for (let i = 0; i < 5; i++) await call(app, 'POST', '/v1/messages', notice(`1380013800${i}`), a.auth)
    const kept = (await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)).body.requests as Entry[]
    expect(kept.map(e => JSON.parse(e.request_body as string).mobile)).toEqual([
      '13800138004',
      '13800138003',
      '13800138002',
    ])
    expect(
      (await call(app, 'GET', '/_sandbox/requests?after=0&limit=2', undefined, a.auth)).body.requests,
    ).toHaveLength(2)
    await call(app, 'POST', '/_sandbox/reset', undefined, a.auth)
    const after = (await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)).body.requests as Entry[]
    expect(after.map(e => e.path)).toEqual(['/_sandbox/reset'])
  })

  it('is off with JOURNAL_MAX_PER_APP=0', async () => {
    const { app } = await createTestApp({ journalMaxPerApp: 0 })
    const a = app$()
    await call(app, 'POST', '/v1/messages', notice(), a.auth)
    expect((await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)).body).toEqual({
      requests: [],
      next_after: 1,
    })
  })
})

describe('the journal over a real port', () => {
  it('wait= holds until a request of the app is answered; request.completed carries the same item', async () => {
    const s = await listening()
    const a = app$()
    await s.http('GET', '/_sandbox/app', undefined, a.auth)
    const answer = s.http('GET', '/_sandbox/requests?after=0&status=403&wait=20000', undefined, a.auth)
    await vi.waitFor(() => expect(s.app.hub.count(a.appKey).waiters).toBe(1), { timeout: 10_000 })
    await s.http('POST', '/v1/messages', notice(), a.auth) // 200: not what it waits for
    await s.http('POST', '/v1/messages', { mobile: '13800138000', temp_id: 404 }, a.auth)
    const held = await answer
    expect(held.body.requests).toEqual([
      expect.objectContaining({ code: 50013, reason: 'the app has no template 404', user_agent: null }),
    ])
    const events = await s.http('GET', '/_sandbox/events?kind=request.completed', undefined, a.auth)
    expect(events.body.events[0]).toEqual({
      seq: held.body.requests[0].seq,
      type: 'request.completed',
      data: held.body.requests[0],
    })
  })
})

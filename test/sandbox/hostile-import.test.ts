import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { createLoggedApp } from '../log-capture.js'
import { startReceiver } from '../scheduler/receiver.js'
import { advance } from '../sms/schedule-helpers.js'

// Issue 33, points 1, 2 and 4: an attacker app and a victim app in one process; the attacker
// imports a document it wrote itself, the victim is measured. An import is a write like any other:
// every row is checked as the API checks what it stores, refused with 400 90020 naming the row,
// and nothing changes; a row the sandbox cannot process fails its own app alone.

type Doc = Record<string, unknown> & { tables: Record<string, Array<Record<string, unknown>>> }

const tenant = () => {
  const appKey = newKey('t')
  return { appKey, auth: { authorization: basic(appKey, newKey('s')) } }
}

const exportOf = async (app: SandboxApp, auth: Record<string, string>): Promise<Doc> => {
  const res = await call(app, 'GET', '/_sandbox/app/export', undefined, auth)
  expect(res.status, res.raw).toBe(200)
  return res.body
}

const importInto = (app: SandboxApp, auth: Record<string, string>, doc: unknown) =>
  call(app, 'POST', '/_sandbox/app/import', doc, auth)

const ok = async (
  app: SandboxApp,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body: unknown,
  auth: object,
) => {
  const res = await call(app, method, url, body, auth as Record<string, string>)
  expect(res.status, `${method} ${url}: ${res.raw}`).toBe(200)
  return res.body
}

/** The victim sends a text and its report is called back once its clock moves. */
async function victimGetsCallbacks(app: SandboxApp, victim: ReturnType<typeof tenant>, url: string) {
  await ok(app, 'PATCH', '/_sandbox/app', { callback_url: url }, victim.auth)
  const sent = await ok(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, victim.auth)
  await advance(app, 60_000, victim.auth)
  return sent.msg_id as string
}

/** A pending callback row of the attacker's document, due now. */
const pendingCallback = (doc: Doc, fields: Record<string, unknown>) => ({
  id: 424242,
  type: 'SMS_REPORT',
  data: '{"msgId":"1"}',
  state: 'pending',
  attempts: 0,
  next_attempt_at: (doc.clock as { now: number }).now,
  created_at: (doc.clock as { now: number }).now,
  url: null,
  seq: 1,
  ...fields,
})

describe('a pending callback whose data is not JSON (point 1)', () => {
  it('is refused on import, naming the row; the victim still gets its callbacks', async () => {
    const { app } = await createTestApp()
    const [attacker, victim] = [tenant(), tenant()]
    const receiver = await startReceiver()
    const doc = await exportOf(app, attacker.auth)
    doc.tables.callbacks = [pendingCallback(doc, { data: '{not json' })]
    const res = await importInto(app, attacker.auth, doc)
    expect(res.body).toEqual({
      error: { code: 90020, message: '"tables.callbacks[0].data": must be JSON text: it does not parse' },
    })
    expect(res.status).toBe(400)
    const msgId = await victimGetsCallbacks(app, victim, receiver.url)
    expect(receiver.received.map(r => JSON.parse(r.form.data ?? '{}').msgId)).toContain(msgId)
  })

  it('that got in another way (a database edited by hand) fails alone, logged with its app', async () => {
    const { app, lines } = await createLoggedApp()
    const [attacker, victim] = [tenant(), tenant()]
    const receiver = await startReceiver()
    await ok(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, attacker.auth)
    const now = (await ok(app, 'GET', '/_sandbox/clock', undefined, attacker.auth)).now as number
    app.store.db
      .prepare(
        `INSERT INTO callbacks (id, app_key, type, data, state, attempts, next_attempt_at, created_at, seq)
         VALUES (999999, ?, 'SMS_REPORT', '{not json', 'pending', 0, ?, ?, 1)`,
      )
      .run(attacker.appKey, now, now)
    const msgId = await victimGetsCallbacks(app, victim, receiver.url)
    expect(receiver.received.map(r => JSON.parse(r.form.data ?? '{}').msgId)).toContain(msgId)
    // Across a restart of the loop too: the poisoned one is failed, not left pending.
    await advance(app, 60_000, attacker.auth)
    const listed = await ok(app, 'GET', '/_sandbox/callbacks', undefined, attacker.auth)
    const poisoned = (
      listed.callbacks as Array<{ id: number; state: string; attempts: Array<{ error: string }> }>
    ).find(c => c.id === 999999)
    expect(poisoned?.state).toBe('failed')
    expect(poisoned?.attempts[0]?.error).toMatch(/not a JSON object/)
    const line = lines().find(l => /callback 999999/.test(l.msg))
    expect(line?.app_key).toBe(attacker.appKey)
  })
})

describe('ids past the range the API hands out (point 2)', () => {
  it('a temp_id of 2147483647 is refused; every tenant still makes, reads, sends and deletes templates', async () => {
    const { app } = await createTestApp()
    const [attacker, victim] = [tenant(), tenant()]
    const doc = await exportOf(app, attacker.auth)
    const template = doc.tables.templates![0]!
    doc.tables.templates!.push({ ...template, temp_id: 2147483647 })
    const res = await importInto(app, attacker.auth, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      `"tables.templates[${doc.tables.templates!.length - 1}].temp_id": must be a whole number from 1 to 1073741823`,
    )
    const made = await ok(
      app,
      'POST',
      '/v1/templates',
      { template: '您的验证码是{{code}}', type: 1, ttl: 300 },
      victim.auth,
    )
    const tempId = made.temp_id as number
    expect(tempId).toBeLessThan(2 ** 31)
    await ok(app, 'POST', `/_sandbox/sms/templates/${tempId}/review`, { status: 1 }, victim.auth)
    expect((await call(app, 'GET', `/v1/templates/${tempId}`, undefined, victim.auth)).status).toBe(200)
    const sent = await call(app, 'POST', '/v1/codes', { mobile: '13800138001', temp_id: tempId }, victim.auth)
    expect(sent.status, sent.raw).toBe(200)
    const removed = await call(app, 'DELETE', `/v1/templates/${tempId}`, undefined, victim.auth)
    expect(removed.status, removed.raw).toBe(200)
  })

  it('a callback or reply id past 2^53 is refused; the victim’s callbacks keep ids of their own', async () => {
    const { app } = await createTestApp()
    const [attacker, victim] = [tenant(), tenant()]
    const receiver = await startReceiver()
    const doc = await exportOf(app, attacker.auth)
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['callbacks', pendingCallback(doc, { id: 2 ** 53 + 2, state: 'delivered' }), 'id'],
      [
        'replies',
        { id: 2 ** 53 + 2, mobile: '13800138000', content: 'x', reply_at: 1, pulled_at: null, seq: 2 },
        'id',
      ],
    ]
    for (const [table, row, column] of cases) {
      const res = await importInto(app, attacker.auth, { ...doc, tables: { ...doc.tables, [table]: [row] } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body.error.message).toMatch(
        new RegExp(`^"tables\\.${table}\\[0\\]\\.${column}": must be a whole number`),
      )
    }
    await ok(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, victim.auth)
    for (let i = 0; i < 4; i++)
      await ok(app, 'POST', '/v1/codes', { mobile: `1380013800${i}`, temp_id: 1 }, victim.auth)
    await advance(app, 60_000, victim.auth)
    const listed = (await ok(app, 'GET', '/_sandbox/callbacks', undefined, victim.auth)).callbacks as Array<{
      id: number
      state: string
    }>
    expect(listed).toHaveLength(4)
    expect(new Set(listed.map(c => c.id)).size).toBe(4)
    expect(listed.map(c => c.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered'])
  })
})

describe('rows an import may not hold (point 4)', () => {
  it('a code on another app’s text is refused: the victim’s text keeps its own, the attacker validates nothing', async () => {
    const { app } = await createTestApp()
    const [attacker, victim] = [tenant(), tenant()]
    const sent = await ok(
      app,
      'POST',
      '/v1/messages',
      { mobile: '13800138000', temp_id: 2, temp_para: { order: 'V', days: '1' } },
      victim.auth,
    )
    const doc = await exportOf(app, attacker.auth)
    const now = (doc.clock as { now: number }).now
    doc.tables.codes = [
      {
        msg_id: Number(sent.msg_id),
        mobile: '13800138000',
        code: '123456',
        expires_at: now + 3600_000,
        verified_at: null,
      },
    ]
    const res = await importInto(app, attacker.auth, doc)
    expect(res.body.error).toEqual({
      code: 90020,
      message: `"tables.codes[0].msg_id": msg_id ${sent.msg_id} names no row of the document's messages: a row may only refer to rows of its own app`,
    })
    const valid = await call(app, 'POST', `/v1/codes/${sent.msg_id}/valid`, { code: '123456' }, attacker.auth)
    expect(valid.body.is_valid).not.toBe(true)
    const texts = await ok(app, 'GET', `/_sandbox/sms/messages?msg_id=${sent.msg_id}`, undefined, victim.auth)
    expect(JSON.stringify(texts)).not.toContain('123456')
  })

  it('every per-app cap holds, and a callback_url must pass the vendor’s check; nothing changes', async () => {
    const { app } = await createTestApp({ maxDevicesPerApp: 100, journalMaxPerApp: 10 })
    const attacker = tenant()
    const failing = await startReceiver()
    failing.answerChecks('fail')
    const doc = await exportOf(app, attacker.auth)
    const now = (doc.clock as { now: number }).now
    const device = (i: number) => ({
      registration_id: `rid${i}`,
      platform: 'android',
      alias: null,
      mobile: null,
      online: 0,
      last_online_at: null,
      created_at: now,
    })
    const request = (seq: number, body = '{}', authenticated = 1) => ({
      seq,
      at: now,
      real_at: now,
      method: 'GET',
      path: '/v1/accounts/app',
      query: null,
      surface: 'sms',
      status: 200,
      code: null,
      message: null,
      reason: null,
      ids: null,
      duration_ms: 1,
      client: '127.0.0.1',
      user_agent: null,
      operator: 0,
      authenticated,
      request_body: null,
      answer_body: body,
    })
    const fault = { path: '/v1/messages', code: 50019 }
    const apps = doc.tables.apps!
    const cases: Array<[unknown, string]> = [
      [
        { ...doc, tables: { ...doc.tables, push_devices: Array.from({ length: 101 }, (_, i) => device(i)) } },
        '"tables.push_devices": holds more than 100 rows, the most one app may hold (MAX_DEVICES_PER_APP)',
      ],
      [
        { ...doc, faults: Array.from({ length: 101 }, () => fault) },
        '"faults": at most 100 faults may be armed at once, as POST /_sandbox/faults says',
      ],
      [
        { ...doc, tables: { ...doc.tables, requests: Array.from({ length: 11 }, (_, i) => request(i + 1)) } },
        '"tables.requests": holds more than 10 rows, the most one app may hold (JOURNAL_MAX_PER_APP)',
      ],
      [
        // The app's own ring full, and one stranger's entry more than the strangers' ring keeps.
        {
          ...doc,
          tables: {
            ...doc.tables,
            requests: [
              ...Array.from({ length: 10 }, (_, i) => request(i + 1)),
              ...Array.from({ length: 51 }, (_, i) => request(i + 11, '{}', 0)),
            ],
          },
        },
        `"tables.requests": holds more than 50 rows of strangers, the most one app may hold (the strangers' ring)`,
      ],
      [
        { ...doc, tables: { ...doc.tables, requests: [request(1, 'x'.repeat(5000))] } },
        '"tables.requests[0].answer_body": must be at most 4160 characters',
      ],
      [
        { ...doc, tables: { ...doc.tables, apps: [{ ...apps[0], settings: '{' }] } },
        '"tables.apps[0].settings": must be JSON text: it does not parse',
      ],
      [
        { ...doc, tables: { ...doc.tables, apps: [{ ...apps[0], ip_whitelist: '{"a":1}' }] } },
        '"tables.apps[0].ip_whitelist": must be the JSON text of an array',
      ],
    ]
    for (const [body, message] of cases) {
      const res = await importInto(app, attacker.auth, body)
      expect(res.body, message).toEqual({ error: { code: 90020, message } })
    }
    const unchecked = await importInto(app, attacker.auth, {
      ...doc,
      tables: { ...doc.tables, apps: [{ ...apps[0], callback_url: failing.url }] },
    })
    expect(unchecked.status).toBe(400)
    expect(unchecked.body.error.message).toMatch(
      /^"tables\.apps\[0\]\.callback_url": the vendor's URL check failed: /,
    )
    // Nothing changed: the app is as it was, and answers every route.
    expect(await exportOf(app, attacker.auth)).toEqual(doc)
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, attacker.auth)).status).toBe(200)
    expect((await call(app, 'DELETE', '/_sandbox/app', undefined, attacker.auth)).status).toBe(200)
  })
})

import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { useEverything } from './use-everything.js'

// GET /_sandbox/app/export and POST /_sandbox/app/import: an app's whole state as one document,
// kept by a CI job and loaded elsewhere.

const tenant = () => {
  const appKey = newKey('x')
  return { appKey, auth: { authorization: basic(appKey, newKey('s')) } }
}

/**
 * An app the Admin API created (POST /v1/app on admin.jpush.cn): it also has a profile (its
 * name and Android package), so the document carries every table.
 */
const adminMade = async (app: SandboxApp) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/app',
    headers: { host: 'admin.jpush.cn', authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET) },
    payload: { app_name: 'exported', android_package: `cn.example.${newKey('p').slice(0, 8)}` },
  })
  expect(res.statusCode, res.body).toBe(200)
  const { app_key: appKey, master_secret: secret } = res.json()
  return { appKey: appKey as string, auth: { authorization: basic(appKey, secret) } }
}

const exportOf = async (app: SandboxApp, auth: Record<string, string>) => {
  const res = await call(app, 'GET', '/_sandbox/app/export', undefined, auth)
  expect(res.status, res.raw).toBe(200)
  return res.body
}

/** A review's result is kept only until it became its callback (src/sms/reviews/table.ts). */
// push_vendor_quota: useEverything sets no vendor quota (its rows are counted only for a quota the app set).
const ALWAYS_EMPTY = ['review_events', 'push_vendor_quota']

describe('an app exported, reset and imported', () => {
  it('holds what it held: exporting it again gives the same document', async () => {
    const { app } = await createTestApp()
    const { appKey, auth } = await adminMade(app)
    await useEverything(app, auth)
    const doc = await exportOf(app, auth)
    expect(doc).toMatchObject({ format: 'jiguang-sandbox/app', version: 1, app_key: appKey })
    // Every feature left rows: the document carries them all, with the faults and the journal.
    const empty = Object.entries(doc.tables as Record<string, unknown[]>)
      .filter(([, rows]) => rows.length === 0)
      .map(([t]) => t)
    expect(empty.filter(t => !ALWAYS_EMPTY.includes(t))).toEqual([])
    expect(doc.faults).toEqual([
      { path: '/v1/messages', code: 50019, status: 500, message: 'server error', times: 5 },
    ])
    const refused = (doc.tables.requests as Array<{ code: number | null; reason: string | null }>).find(
      r => r.code === 50013,
    )
    expect(refused?.reason).toBe('the app has no template 99')
    expect(JSON.stringify(doc)).not.toContain(auth.authorization.slice(6))

    const before = {
      messages: (await call(app, 'GET', '/_sandbox/sms/messages', undefined, auth)).body,
      app: (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body,
    }
    expect((await call(app, 'POST', '/_sandbox/reset', undefined, auth)).status).toBe(200)
    const imported = await call(app, 'POST', '/_sandbox/app/import', doc, auth)
    expect(imported.status, imported.raw).toBe(200)
    expect(imported.body).toMatchObject({ app_key: appKey, imported: true, faults: 1 })

    expect(await exportOf(app, auth)).toEqual(doc)
    expect((await call(app, 'GET', '/_sandbox/sms/messages', undefined, auth)).body).toEqual(before.messages)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body).toEqual(before.app)
    // Live, not just stored: the fault answers, then the app sends as before.
    const notice = { mobile: '13800138009', temp_id: 2, temp_para: { order: 'I', days: '1' } }
    expect((await call(app, 'POST', '/v1/messages', notice, auth)).body.error.code).toBe(50019)
  })
})

describe('an app imported into another sandbox', () => {
  it('keeps its own credentials, goes on from the clock and ids of the document', async () => {
    const { app: ci } = await createTestApp()
    const source = tenant()
    await useEverything(ci, source.auth)
    const doc = await exportOf(ci, source.auth)

    const { app: laptop } = await createTestApp()
    const target = tenant()
    const res = await call(laptop, 'POST', '/_sandbox/app/import', doc, target.auth)
    expect(res.status, res.raw).toBe(200)
    const again = await exportOf(laptop, target.auth)
    expect(again).toEqual({ ...doc, app_key: target.appKey })
    // The journal says why, on the laptop too.
    const refusals = await call(laptop, 'GET', '/_sandbox/requests?code=50013', undefined, target.auth)
    expect(refusals.body.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v1/messages', reason: 'the app has no template 99' }),
    ])
    // New ids go on above the document's.
    await call(laptop, 'DELETE', '/_sandbox/faults', undefined, target.auth)
    const largest = Math.max(...(doc.tables.messages as Array<{ msg_id: number }>).map(m => m.msg_id))
    const other = tenant()
    const sent = await call(laptop, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, other.auth)
    expect(Number(sent.body.msg_id)).toBeGreaterThan(largest)
    // Seqs too: the next item of the app comes after the document's.
    const events = await call(laptop, 'GET', '/_sandbox/events?limit=1', undefined, target.auth)
    const reply = await call(
      laptop,
      'POST',
      '/_sandbox/sms/replies',
      { mobile: '13800138000', content: 'x' },
      target.auth,
    )
    expect(reply.status).toBe(200)
    const next = await call(
      laptop,
      'GET',
      `/_sandbox/sms/replies?after=${events.body.next_after}`,
      undefined,
      target.auth,
    )
    expect(next.body.replies).toHaveLength(1)
  })

  it('refuses ids another app of the sandbox holds, and changes nothing', async () => {
    const { app } = await createTestApp()
    const [a, b] = [tenant(), tenant()]
    await useEverything(app, a.auth)
    const doc = await exportOf(app, a.auth)
    await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, b.auth)
    const before = await exportOf(app, b.auth)
    const res = await call(app, 'POST', '/_sandbox/app/import', doc, b.auth)
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe(90056)
    expect(res.body.error.message).toMatch(
      /is held by another app of this sandbox: import into a fresh sandbox/,
    )
    expect(await exportOf(app, b.auth)).toEqual(before)
  })
})

describe('a document the sandbox cannot take', () => {
  it('is refused naming what is wrong, and nothing changes', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, auth)
    const doc = await exportOf(app, auth)
    const tables = doc.tables as Record<string, Array<Record<string, unknown>>>
    const messages = tables.messages as Array<Record<string, unknown>>
    const cases: Array<[unknown, string]> = [
      [{ ...doc, version: 2 }, '"version": this sandbox reads version 1 of the document, not 2'],
      [
        { ...doc, format: 'x' },
        '"format": must be "jiguang-sandbox/app": not a document of GET /_sandbox/app/export',
      ],
      [{ ...doc, tables: { ...tables, widgets: [] } }, '"tables.widgets": no such table in this sandbox'],
      [
        { ...doc, tables: { ...tables, messages: [{ ...messages[0], colour: 'red' }] } },
        '"tables.messages[0].colour": no such column of messages',
      ],
      [
        { ...doc, tables: { ...tables, messages: [{ ...messages[0], mobile: null }] } },
        '"tables.messages[0].mobile": required',
      ],
      [
        { ...doc, tables: { ...tables, messages: [] } },
        `"tables.reports[0].msg_id": msg_id ${messages[0]!.msg_id} names no row of the document's messages: a row may only refer to rows of its own app`,
      ],
      [
        { ...doc, faults: [{ path: '/v9/x', code: 1 }] },
        '"faults[0]": "path": must be "*" or a path under /v1, /v3 or /admin/v1 (the Admin API)',
      ],
      [{ ...doc, tables: { ...tables, apps: [] } }, '"tables.apps": must hold the one row of the app'],
    ]
    for (const [body, message] of cases) {
      const res = await call(app, 'POST', '/_sandbox/app/import', body, auth)
      expect(res.body, message).toEqual({ error: { code: 90020, message } })
      expect(res.status).toBe(400)
    }
    expect((await call(app, 'POST', '/_sandbox/app/import', '[1]', auth)).body.error.code).toBe(90010)
    expect(await exportOf(app, auth)).toEqual(doc)
  })
})

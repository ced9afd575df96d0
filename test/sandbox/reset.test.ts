import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { DEFAULT_APP_KEY } from '../../src/seed/fixtures.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'
import { key } from '../sms/support.js'
import { useEverything } from './use-everything.js'

// POST /_sandbox/reset: the calling app back to the state of its first use, in every table and in
// memory, and no other app touched.

const tenant = () => {
  const appKey = newKey('r')
  return { appKey, auth: { authorization: basic(appKey, newKey('s')) } }
}

/** The app's rows in every table, once the journal's entries of the requests answered are written. */
async function rowsOf(app: SandboxApp, appKey: string): Promise<Record<string, number>> {
  await app.store.requests.settled()
  return Object.fromEntries(
    app.store.appRows.tables.map(t => [
      t,
      (
        app.store.db.prepare(`SELECT count(*) AS n FROM "${t}" WHERE app_key = ?`).get(appKey) as {
          n: number
        }
      ).n,
    ]),
  )
}

describe('POST /_sandbox/reset', () => {
  it('brings every table and setting back to the first use, and answers the app as new', async () => {
    const { app } = await createTestApp()
    const { appKey, auth } = tenant()
    const fresh = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body
    const firstRows = await rowsOf(app, appKey)
    await useEverything(app, auth)
    const busy = await rowsOf(app, appKey)
    // Every table the app can write to has more rows than at first use (so the check means something).
    for (const t of [
      'messages',
      'codes',
      'reports',
      'schedules',
      'replies',
      'callbacks',
      'templates',
      'signs',
      'requests',
    ])
      expect(busy[t], t).toBeGreaterThan(firstRows[t]!)
    for (const t of ['unsubscribed', 'pushes', 'push_deliveries', 'push_devices', 'push_device_tags'])
      expect(busy[t], t).toBeGreaterThan(firstRows[t]!)

    const reset = await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual(fresh)
    // Nothing is left but the reset's own event (app.reset: docs/control-plane.md "Waiting and events")
    // and the journal's entry of the reset itself (the request journal).
    expect(await rowsOf(app, appKey)).toEqual({ ...firstRows, events: 1, requests: 1 })
    // Cascaded rows are gone with their parents.
    const orphans = app.store.db
      .prepare(
        `SELECT (SELECT count(*) FROM callback_attempts WHERE callback_id NOT IN (SELECT id FROM callbacks)) +
                (SELECT count(*) FROM schedule_recipients WHERE schedule_id NOT IN (SELECT schedule_id FROM schedules)) AS n`,
      )
      .get() as { n: number }
    expect(orphans.n).toBe(0)
  })

  it('forgets what memory holds: faults, rate windows, the poll window, caches, the clock', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    await useEverything(app, auth)
    await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    expect((await call(app, 'GET', '/_sandbox/faults', undefined, auth)).body.faults).toEqual([])
    const sent = await call(
      app,
      'POST',
      '/v1/messages',
      { mobile: '13800138001', temp_id: 2, temp_para: { order: 'A', days: '1' } },
      auth,
    )
    expect(sent.status).toBe(200)
    // The report poll of a moment ago no longer counts (no 50201), the callback URL is gone.
    expect((await call(app, 'GET', '/v1/report', undefined, auth)).status).toBe(200)
    // A fresh push window: 599 left of 600; template 4 under review again; 10001 unknown.
    expect((await call(app, 'POST', '/v3/push', pushBody(), auth)).headers['x-rate-limit-remaining']).toBe(
      '599',
    )
    expect((await call(app, 'GET', '/v1/templates/4', undefined, auth)).body.status).toBe(0)
    expect((await call(app, 'GET', '/_sandbox/clock', undefined, auth)).body.offset_ms).toBe(0)
    const device = await call(app, 'GET', `/v3/devices/${ANDROID_1}`, undefined, auth)
    expect(device.body).toMatchObject({ alias: 'alias1', tags: ['beta', 'tag1'] })
  })

  it('gives broadcasts of the day back', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    const broadcast = { platform: 'all', audience: 'all', notification: { alert: 'all' } }
    for (let i = 0; i < 10; i++) await call(app, 'POST', '/v3/push', broadcast, auth)
    expect((await call(app, 'POST', '/v3/push', broadcast, auth)).body.error.code).toBe(2008)
    await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    expect((await call(app, 'POST', '/v3/push', broadcast, auth)).status).toBe(200)
  })

  it('leaves every other app as it was', async () => {
    const { app } = await createTestApp()
    const a = tenant()
    const b = tenant()
    await useEverything(app, b.auth)
    const before = {
      rows: await rowsOf(app, b.appKey),
      view: (await call(app, 'GET', '/_sandbox/app', undefined, b.auth)).body,
    }
    await useEverything(app, a.auth)
    await call(app, 'POST', '/_sandbox/reset', undefined, a.auth)
    expect(await rowsOf(app, b.appKey)).toEqual(before.rows)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, b.auth)).body).toEqual(before.view)
    expect((await call(app, 'GET', '/_sandbox/faults', undefined, b.auth)).body.faults).toHaveLength(1)
  })

  it('makes the default app and its developer as they were at the first start', async () => {
    const { app } = await createTestApp()
    const fresh = (await call(app, 'GET', '/_sandbox/app')).body
    await call(app, 'PATCH', '/_sandbox/app', {
      developer: { frozen: true, balances: { voice: 1 } },
      balances: { voice: 2 },
    })
    await call(app, 'POST', '/v1/templates', { template: '模板{{x}}', type: 2 })
    const reset = await call(app, 'POST', '/_sandbox/reset')
    expect(reset.body).toEqual(fresh)
    expect(reset.body.app_key).toBe(DEFAULT_APP_KEY)
    expect((await call(app, 'GET', '/v1/templates/10001')).body.error.code).toBe(50013)
  })
})

describe('resetting an app of the seed file', () => {
  const seedApp = { appKey: key('seedreset'), secret: key('seedresetsecret') }
  const sibling = { appKey: key('seedsibling'), secret: key('seedsiblingsecret') }
  const dev = { dev_key: key('seedresetdev'), dev_secret: key('seedresetdevsecret') }
  const shared = { dev_key: key('seedshareddev'), dev_secret: key('seedshareddevsecret') }
  const auth = { authorization: basic(seedApp.appKey, seedApp.secret) }
  const siblingAuth = { authorization: basic(sibling.appKey, sibling.secret) }

  function seeded() {
    const file = join(mkdtempSync(join(tmpdir(), 'reset-seed-')), 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({
        developers: [{ ...dev, balances: { voice: 7 } }, shared],
        apps: [
          // Two apps on one developer account.
          { app_key: sibling.appKey, master_secret: sibling.secret, dev_key: shared.dev_key },
          { app_key: key('seedsibling2'), master_secret: key('seedsibling2secret'), dev_key: shared.dev_key },
          {
            app_key: seedApp.appKey,
            master_secret: seedApp.secret,
            dev_key: dev.dev_key,
            balances: { market: 3 },
            sensitive_words: ['秘密'],
            templates: [{ temp_id: 7, template: '种子{{x}}', type: 2 }],
          },
        ],
      }),
    )
    return createTestApp({ seedFile: file })
  }

  it('makes it again from its definition, developer included', async () => {
    const { app } = await seeded()
    const fresh = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body
    expect(fresh).toMatchObject({
      balances: { market: 3 },
      sensitive_words: ['秘密'],
      developer: { balances: { voice: 7 } },
    })
    await call(app, 'PATCH', '/_sandbox/app', { sensitive_words: [], developer: { frozen: true } }, auth)
    await call(app, 'DELETE', '/v1/templates/7', undefined, auth)
    const reset = await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    expect(reset.body).toEqual(fresh)
    expect((await call(app, 'GET', '/v1/templates/7', undefined, auth)).body.template).toBe('种子{{x}}')
  })

  it('leaves a developer alone when another app shares it: resetting one app changes no other', async () => {
    const { app } = await seeded()
    await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { developer: { frozen: true, balances: { market: 1 } } },
      siblingAuth,
    )
    const changed = (await call(app, 'GET', '/_sandbox/app', undefined, siblingAuth)).body.developer
    expect(changed).toMatchObject({ frozen: true, balances: { market: 1 } })
    await call(app, 'POST', '/_sandbox/reset', undefined, siblingAuth)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, siblingAuth)).body.developer).toEqual(changed)
  })
})

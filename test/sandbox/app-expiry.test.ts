import { describe, expect, it, vi } from 'vitest'
import { APP_KEY, basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { sendTimeIn, sentTo } from '../sms/schedule-helpers.js'
import { listening } from './real-port.js'

// Idle auto-provisioned apps expire (issue 33: they never did, so a few addresses filled
// AUTO_PROVISION_MAX_APPS for good). Time is the process's: the test clock starts at real time,
// since the journal dates each request in real time, then moves.

const HOUR = 3600_000
const IDLE = 24 * HOUR
/** The journal dates requests in real time: a minute more than the idle time is past them all. */
const MINUTE = 60_000

async function sandbox(overrides = {}) {
  const t = await createTestApp(overrides)
  // A whole second: send_time has no milliseconds.
  t.clock.set(Math.floor(Date.now() / 1000) * 1000)
  return t
}

describe('an idle auto-provisioned app', () => {
  it('is removed after AUTO_PROVISION_IDLE_MS without a request, as DELETE /_sandbox/app removes it; the default app stays', async () => {
    const { app, clock } = await sandbox()
    const [key, secret] = [newKey('idle'), newKey('s')]
    const auth = { authorization: basic(key, secret) }
    const sent = await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, auth)
    expect(sent.status).toBe(200)
    const before = app.store.apps.count()

    clock.advance(IDLE - 60_000)
    await app.scheduler.tick()
    expect(app.store.apps.get(key)).toBeDefined()

    clock.advance(2 * 60_000)
    await app.scheduler.tick()
    expect(app.store.apps.get(key)).toBeUndefined()
    expect(app.store.apps.developer([...key].reverse().join(''))).toBeUndefined()
    expect(app.store.apps.count()).toBe(before - 1)
    // Its rows went with it; the default app, as old and as idle, is still there.
    expect(app.store.appRows.count(key).messages).toBe(0)
    expect(app.store.apps.get(APP_KEY)).toBeDefined()
    // Its credentials make it afresh, empty.
    const again = await call(app, 'GET', '/_sandbox/sms/messages', undefined, auth)
    expect([again.status, again.body.messages]).toEqual([200, []])
  })

  it('is kept while it is used: requests of any kind, control-plane reads included', async () => {
    const { app, clock } = await sandbox()
    const auth = { authorization: basic(newKey('busy'), newKey('s')) }
    const key = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body.app_key
    // Control-plane reads only (the journal keeps none of them), one every 20 hours.
    for (let i = 0; i < 3; i++) {
      clock.advance(20 * HOUR)
      await app.scheduler.tick()
      expect((await call(app, 'GET', '/_sandbox/sms/messages', undefined, auth)).status).toBe(200)
    }
    expect(app.store.apps.get(key)).toBeDefined()
    clock.advance(IDLE + MINUTE)
    await app.scheduler.tick()
    expect(app.store.apps.get(key)).toBeUndefined()
  })

  it('is kept while it holds a wait or a stream open', async () => {
    const s = await listening()
    s.clock.set(Date.now())
    const auth = { authorization: basic(newKey('wait'), newKey('s')) }
    const key = (await s.http('GET', '/_sandbox/app', undefined, auth)).body.app_key
    const held = s.http('GET', '/_sandbox/sms/messages?wait=20000', undefined, auth)
    await vi.waitFor(() => expect(s.app.hub.count(key).waiters).toBe(1))
    s.clock.advance(IDLE + MINUTE)
    await s.app.scheduler.tick()
    expect(s.app.store.apps.get(key)).toBeDefined()
    expect(s.app.hub.count(key).waiters).toBe(1)
    await s.http(
      'POST',
      '/v1/messages',
      { mobile: '13800138000', temp_id: 2, temp_para: { order: 'E', days: '1' } },
      auth,
    )
    expect((await held).body.messages).toHaveLength(1)
  })

  it('frees its place under AUTO_PROVISION_MAX_APPS: a cap filled by others does not last', async () => {
    const { app, clock } = await sandbox({ autoProvisionMaxApps: 4 })
    for (let i = 0; i < 3; i++)
      expect(
        (
          await call(app, 'GET', '/v1/accounts/app', undefined, {
            authorization: basic(newKey('hog'), newKey('s')),
          })
        ).status,
      ).toBe(200)
    const victim = { authorization: basic(newKey('victim'), newKey('s')) }
    const refused = await call(app, 'GET', '/v1/accounts/app', undefined, victim)
    expect(refused.body.error.message).toBe(
      'auth failed: auto-provisioning refused: the sandbox already holds 4 apps, its limit (AUTO_PROVISION_MAX_APPS)',
    )
    clock.advance(IDLE + MINUTE)
    await app.scheduler.tick()
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, victim)).status).toBe(200)
  })

  it('is its own under export and import: the document leaves it out, the importing app keeps its own', async () => {
    const { app, clock } = await sandbox()
    const auto = { authorization: basic(newKey('from'), newKey('s')) }
    await call(app, 'GET', '/v1/accounts/app', undefined, auto)
    const doc = (await call(app, 'GET', '/_sandbox/app/export', undefined, auto)).body
    expect(doc.tables.app_activity[0]).not.toHaveProperty('idle_since')
    // Into the default app: it still never expires. Into another auto-provisioned app: it does.
    expect((await call(app, 'POST', '/_sandbox/app/import', doc)).status).toBe(200)
    const into = { authorization: basic(newKey('into'), newKey('s')) }
    expect((await call(app, 'POST', '/_sandbox/app/import', doc, into)).status).toBe(200)
    const key = (await call(app, 'GET', '/_sandbox/app', undefined, into)).body.app_key
    clock.advance(IDLE + MINUTE)
    await app.scheduler.tick()
    expect(app.store.apps.get(key)).toBeUndefined()
    expect(app.store.apps.get(APP_KEY)).toBeDefined()
  })

  it("keeps out of its app clock's moves: what falls due on the way runs, each at its own time", async () => {
    const { app } = await sandbox()
    const auth = { authorization: basic(newKey('move'), newKey('s')) }
    const start = (await call(app, 'GET', '/_sandbox/clock', undefined, auth)).body.now as number
    for (const [mobile, days] of [
      ['13800138501', 2],
      ['13800138502', 3],
    ] as const) {
      const scheduled = await call(
        app,
        'POST',
        '/v1/schedule',
        {
          send_time: await sendTimeIn(app, days * IDLE, auth),
          mobile,
          temp_id: 2,
          temp_para: { order: mobile, days: '1' },
        },
        auth,
      )
      expect(scheduled.status).toBe(200)
    }
    // Four days of its own time: the process's (its idleness) does not move.
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: 4 * IDLE }, auth)).status).toBe(200)
    const [first] = await sentTo(app, '13800138501', auth)
    const [second] = await sentTo(app, '13800138502', auth)
    expect([first?.created_at, second?.created_at]).toEqual([
      new Date(start + 2 * IDLE).toISOString(),
      new Date(start + 3 * IDLE).toISOString(),
    ])
  })

  it('AUTO_PROVISION_IDLE_MS=0: never', async () => {
    const { app, clock } = await sandbox({ autoProvisionIdleMs: 0 })
    const auth = { authorization: basic(newKey('kept'), newKey('s')) }
    const key = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body.app_key
    clock.advance(365 * IDLE)
    await app.scheduler.tick()
    expect(app.store.apps.get(key)).toBeDefined()
  })

  it('a seed file app, or one the Admin API made, never expires', async () => {
    const { app, clock } = await sandbox()
    const dev = basic('sandboxdevkey00000000001', 'sandboxdevsecret00000001')
    const made = await app.inject({
      method: 'POST',
      url: '/v1/app',
      headers: { authorization: dev, host: 'admin.jpush.cn', 'content-type': 'application/json' },
      payload: JSON.stringify({ app_name: 'kept', android_package: 'cn.kept.app' }),
    })
    expect(made.statusCode).toBe(200)
    clock.advance(10 * IDLE)
    await app.scheduler.tick()
    expect(app.store.apps.get(made.json().app_key)).toBeDefined()
    expect((await call(app, 'GET', '/_sandbox/app', undefined, { authorization: defaultAuth })).status).toBe(
      200,
    )
  })
})

import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { redirectHttpsTo } from '../push/https-redirect.js'

// The production advisor on /v3/schedules (advisor/schedule.ts): a periodical task whose first
// occurrence is already past on the app's clock is accepted (the vendor takes a past start) and
// fires from now on; a single time past is refused, as the vendor refuses it. The test clock starts
// at 2026-01-01 08:00 Beijing time.

const require = createRequire(import.meta.url)
const { JPushAsync: JPush } = require('jpush-async')

interface Warning {
  rule: string
  message: string
  source: string
}
const tenant = () => {
  const key = newKey('c')
  const secret = newKey('s')
  return { authorization: basic(key, secret), key, secret }
}
type Auth = ReturnType<typeof tenant>
const headers = (a: Auth) => ({ authorization: a.authorization })

async function warned(app: SandboxApp, auth: Auth) {
  const { body } = await call(
    app,
    'GET',
    '/_sandbox/requests?warning=schedule-past',
    undefined,
    headers(auth),
  )
  return body.requests as Array<{ method: string; path: string; status: number; warnings: Warning[] }>
}

const push = { platform: 'all', audience: 'all', notification: { alert: 'daily' } }
const daily = (start: string, time: string) => ({
  periodical: { start, end: '2026-03-01 00:00:00', time, time_unit: 'day', frequency: 1 },
})

describe('schedule-past', () => {
  it('jpush-async: a daily task from 07:00 at 07:30, made at 08:00, is warned of in the journal and the event', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const restore = redirectHttpsTo((app.server.address() as AddressInfo).port)
    try {
      const client = JPush.buildClient({ appKey: auth.key, masterSecret: auth.secret, isDebug: false })
      const res = await client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.ALL)
        .setNotification('daily')
        .setPeriodicalSchedule('2026-01-01 07:00:00', '2026-03-01 00:00:00', '07:30:00', 'day', 1)
        .setSchedule('morning', true)
      expect(Object.keys(res)).toEqual(['schedule_id', 'name'])
    } finally {
      restore()
    }
    const [entry] = await warned(app, auth)
    expect(entry).toMatchObject({ path: '/v3/schedules', status: 200 })
    expect(entry!.warnings).toEqual([
      {
        rule: 'schedule-past',
        message:
          "periodical's first occurrence, 2026-01-01 07:30:00 (Beijing), is past on the app's clock " +
          '(2026-01-01 08:00:00): it never fires; the task fires from 2026-01-02 07:30:00 on',
        source: expect.stringContaining('rest_api_push_schedule'),
      },
    ])
    const { body } = await call(
      app,
      'GET',
      '/_sandbox/events?kind=request.completed',
      undefined,
      headers(auth),
    )
    const event = (body.events as Array<{ data: { path: string; warnings: Warning[] } }>).find(
      e => e.data.path === '/v3/schedules',
    )
    expect(event!.data.warnings).toEqual(entry!.warnings)
  })

  it('plain HTTP: the header when asked, on POST and PUT; none for a task whose first occurrence is ahead; never refused', async () => {
    const { app } = await createTestApp({ strictWarnings: true })
    const auth = tenant()
    const on = { ...headers(auth), 'x-sandbox-warnings': 'on' }
    const ahead = await call(
      app,
      'POST',
      '/v3/schedules',
      { name: 'noon', enabled: true, trigger: daily('2026-01-01 07:00:00', '12:00:00'), push },
      on,
    )
    expect(ahead.status).toBe(200)
    expect(ahead.headers['x-sandbox-warning']).toBeUndefined()

    const past = await call(
      app,
      'POST',
      '/v3/schedules',
      { name: 'early', enabled: true, trigger: daily('2025-12-31 00:00:00', '07:30:00'), push },
      on,
    )
    expect(past.status).toBe(200) // STRICT_WARNINGS: the vendor accepts it
    expect(past.headers['x-sandbox-warning']).toMatch(
      /^schedule-past; periodical's first occurrence, 2025-12-31 07:30:00 \(Beijing\), is past/,
    )
    const put = await call(
      app,
      'PUT',
      `/v3/schedules/${ahead.body.schedule_id}`,
      { trigger: daily('2026-01-01 06:00:00', '06:30:00') },
      on,
    )
    expect(put.status).toBe(200)
    expect(put.headers['x-sandbox-warning']).toMatch(/^schedule-past; /)
    // A single time past is the vendor's refusal (8100), not a warning.
    const single = await call(
      app,
      'POST',
      '/v3/schedules',
      { name: 'once', enabled: true, trigger: { single: { time: '2026-01-01 07:59:00' } }, push },
      on,
    )
    expect(single.status).toBe(400)
    expect(single.body.error.code).toBe(8100)
    expect((await warned(app, auth)).map(e => [e.method, e.path.split('/').length])).toEqual([
      ['PUT', 4],
      ['POST', 3],
    ])
  })
})

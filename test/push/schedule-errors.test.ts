import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { create, HOUR, periodical, single, taskPush } from './schedule-helpers.js'

// Every documented code of the Schedule API (jpush-api.md §8): 8100 400 for whatever a request
// gets wrong (the message says what), 8101 401, 8104 404. Limits and 8200: schedule-limits.test.ts.

const NOW = '2026-01-01 08:00:00' // the test clock's start, in Beijing time
const periodic = (p: Record<string, unknown>) =>
  periodical({ start: NOW, end: '2026-02-01 00:00:00', time: '09:00:00', ...p })

type Row = [what: string, body: unknown, message: RegExp]

// POST /v3/schedules bodies, each refused with 400 8100 and a message saying why.
const CREATE_ROWS: Row[] = [
  ['a body that is not JSON', '{"name":', /request data is not json/],
  ['a body that is not an object', [], /not a JSON object/],
  ['no name', { ...single('2026-01-02 09:00:00'), name: undefined }, /name is required/],
  ['no enabled', { ...single('2026-01-02 09:00:00'), enabled: undefined }, /enabled is required/],
  ['no trigger', { ...single('2026-01-02 09:00:00'), trigger: undefined }, /trigger is required/],
  ['no push', { ...single('2026-01-02 09:00:00'), push: undefined }, /push is required/],
  [
    'a name of 256 bytes',
    single('2026-01-02 09:00:00', { name: `a${'定'.repeat(85)}` }),
    /longer than 255 bytes/,
  ],
  ['a name with a space', single('2026-01-02 09:00:00', { name: 'my task' }), /letters, digits/],
  ['a name that is not a string', single('2026-01-02 09:00:00', { name: 7 }), /name must be/],
  ['enabled false on create', single('2026-01-02 09:00:00', { enabled: false }), /new task must be enabled/],
  ['enabled as text', single('2026-01-02 09:00:00', { enabled: 'true' }), /enabled must be true or false/],
  [
    'both single and periodical',
    {
      ...single('2026-01-02 09:00:00'),
      trigger: { single: { time: '2026-01-02 09:00:00' }, periodical: {} },
    },
    /either single or periodical/,
  ],
  ['neither', { ...single('2026-01-02 09:00:00'), trigger: {} }, /either single or periodical/],
  ['an incomplete time', single('2026-1-2 09:00:00'), /single.time must be "YYYY-MM-DD HH:MM:SS"/],
  ['a time without seconds', single('2026-01-02 09:00'), /single.time must be/],
  ['an impossible date', single('2026-02-30 09:00:00'), /single.time must be/],
  ['a time in the past', single('2026-01-01 07:59:59'), /single.time has passed/],
  ['a time more than a year ahead', single('2027-01-01 08:00:01'), /more than a year ahead/],
  ['periodical without start', periodic({ start: undefined }), /periodical.start must be/],
  ['periodical time of day malformed', periodic({ time: '9:00' }), /periodical.time must be "HH:MM:SS"/],
  ['periodical unit unknown', periodic({ time_unit: 'hour' }), /time_unit must be day, week or month/],
  ['periodical frequency 0', periodic({ frequency: 0 }), /frequency must be 1 to 100/],
  ['periodical frequency 101', periodic({ frequency: 101 }), /frequency must be 1 to 100/],
  ['periodical day with points', periodic({ point: ['MON'] }), /must not be given when time_unit is day/],
  ['periodical week without points', periodic({ time_unit: 'week' }), /must list the weekdays/],
  ['periodical week point unknown', periodic({ time_unit: 'week', point: ['XYZ'] }), /point value "XYZ"/],
  ['periodical month day 32', periodic({ time_unit: 'month', point: ['32'] }), /point value "32"/],
  [
    'periodical ending before it starts',
    periodic({ end: NOW, start: '2026-01-02 00:00:00' }),
    /end must be after its start/,
  ],
  ['periodical longer than a year', periodic({ end: '2027-01-01 08:00:01' }), /spans more than a year/],
  [
    'periodical already over',
    periodic({ start: '2025-12-01 00:00:00', end: '2025-12-31 00:00:00' }),
    /end has passed/,
  ],
  [
    'periodical starting more than a year ahead',
    periodic({ start: '2027-01-02 00:00:00', end: '2027-02-01 00:00:00' }),
    /start is more than a year ahead/,
  ],
  ['periodical that never fires', periodic({ start: NOW, end: '2026-01-01 08:30:00' }), /never fires/],
  [
    'a push without platform (push API 1002)',
    single('2026-01-02 09:00:00', { push: taskPush({ platform: undefined }) }),
    /push section is invalid: 1002 /,
  ],
  [
    'a push with an unknown platform (push API 1003)',
    single('2026-01-02 09:00:00', { push: taskPush({ platform: ['nokia'] }) }),
    /push section is invalid: 1003 platform 'nokia'/,
  ],
  [
    'a push that is too big (push API 1005)',
    single('2026-01-02 09:00:00', {
      push: taskPush({ notification: { android: { alert: 'x'.repeat(5000) } } }),
    }),
    /push section is invalid: 1005 /,
  ],
  [
    'a push that is not an object',
    single('2026-01-02 09:00:00', { push: 'all' }),
    /push section is invalid$/,
  ],
  [
    "another app's cid",
    single('2026-01-02 09:00:00', { cid: `${'a'.repeat(24)}-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b` }),
    /cid is invalid/,
  ],
]

describe('POST /v3/schedules refusals: 400 8100', () => {
  it.each(CREATE_ROWS)('%s', async (_what, body, message) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/schedules', body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(8100)
    expect(res.body.error.message).toMatch(/^The schedule-task is invalid: /)
    expect(res.body.error.message).toMatch(message)
    expect((await call(app, 'GET', '/v3/schedules')).body.total_count).toBe(0)
  })

  it('takes a name of exactly 255 bytes and a time exactly a year ahead', async () => {
    const { app } = await createTestApp()
    const res = await call(
      app,
      'POST',
      '/v3/schedules',
      single('2027-01-01 08:00:00', { name: '定'.repeat(85) }),
    )
    expect(res.status).toBe(200)
    const span = await call(app, 'POST', '/v3/schedules', periodic({ end: '2027-01-01 08:00:00' }))
    expect(span.status).toBe(200)
  })

  it.each<[string, Record<string, unknown>]>([
    ['month points as "1", 1 and "01"', { time_unit: 'month', point: ['1', 15, '01'] }],
    ['day with point []', { point: [] }],
    ['day with point null', { point: null }],
    ['frequency as a numeric string', { frequency: '2' }],
  ])('takes %s', async (_what, p) => {
    const { app } = await createTestApp()
    expect((await call(app, 'POST', '/v3/schedules', periodic(p))).status).toBe(200)
  })
})

describe('PUT /v3/schedules/{id} refusals', () => {
  it.each<[string, 'single' | 'periodical', unknown, RegExp]>([
    [
      'single to periodical',
      'single',
      { trigger: periodic({}).trigger },
      /trigger of a single task cannot be periodical/,
    ],
    [
      'periodical to single',
      'periodical',
      { trigger: { single: { time: '2026-01-02 09:00:00' } } },
      /trigger of a periodical task cannot be single/,
    ],
    [
      'a partial trigger (the end alone)',
      'periodical',
      { trigger: { periodical: { end: '2026-03-01 00:00:00' } } },
      /periodical.start must be/,
    ],
    [
      'a partial push (the platform alone)',
      'single',
      { push: { platform: 'android' } },
      /push section is invalid: 1002/,
    ],
    ['nothing to update', 'single', { cid: 'x' }, /at least one of name, enabled, trigger, push/],
    ['a name too long', 'single', { name: 'a'.repeat(256) }, /longer than 255 bytes/],
  ])('%s: 400 8100', async (_what, kind, body, message) => {
    const { app } = await createTestApp()
    const id = await create(app, kind === 'single' ? single('2026-01-02 09:00:00') : periodic({}))
    const before = (await call(app, 'GET', `/v3/schedules/${id}`)).body
    const res = await call(app, 'PUT', `/v3/schedules/${id}`, body)
    expect([res.status, res.body.error.code]).toEqual([400, 8100])
    expect(res.body.error.message).toMatch(message)
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).body).toEqual(before)
  })

  it('a task that is over cannot be updated: 400 8100', async () => {
    const { app, clock } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    clock.advance(2 * HOUR)
    const res = await call(app, 'PUT', `/v3/schedules/${id}`, { name: 'late' })
    expect([res.status, res.body.error.code]).toEqual([400, 8100])
    expect(res.body.error.message).toMatch(/has expired/)
  })
})

describe('unknown tasks: 404 8104', () => {
  it.each([
    ['GET', '/v3/schedules/00000000-0000-0000-0000-000000000000'],
    ['GET', '/v3/schedules/not-a-uuid/msg_ids'],
    ['PUT', '/v3/schedules/not-a-uuid'],
    ['DELETE', '/v3/schedules/not-a-uuid'],
    ['GET', '/v3/schedules/%ZZ'],
  ] as const)('%s %s', async (method, path) => {
    const { app } = await createTestApp()
    const res = await call(app, method, path, method === 'PUT' ? { name: 'x' } : undefined)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 8104, message: "Request schedule operation doesn't exist" } })
  })

  it("another app's task is unknown, to read, change or delete", async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-02 09:00:00'))
    const other = { authorization: basic(newKey('other'), newKey('secret')) }
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(
        app,
        method,
        `/v3/schedules/${id}`,
        method === 'PUT' ? { name: 'x' } : undefined,
        other,
      )
      expect([res.status, res.body.error.code], method).toEqual([404, 8104])
    }
    expect((await call(app, 'GET', '/v3/schedules', undefined, other)).body.total_count).toBe(0)
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).body.name).toBe('single_task')
  })
})

describe('credentials, methods, pages', () => {
  it.each([
    ['no credentials', {}],
    ['a wrong secret', { authorization: basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000') }],
    ['a malformed appKey', { authorization: basic('short', 'secret') }],
  ])('%s: 401 8101', async (_what, headers) => {
    const { app } = await createTestApp()
    const res = await app.inject({ method: 'GET', url: '/v3/schedules', headers })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: { code: 8101, message: 'Basic authentication failed.' } })
  })

  it('a wrong method: 405 8100', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PATCH', '/v3/schedules', {})
    expect([res.status, res.body.error.code]).toEqual([405, 8100])
  })

  it.each(['0', '-1', 'abc', '1.5'])('page=%s: 400 8100', async page => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', `/v3/schedules?page=${page}`)
    expect([res.status, res.body.error.code]).toEqual([400, 8100])
  })
})

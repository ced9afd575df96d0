import { describe, expect, it } from 'vitest'
import { createTestApp, defaultAuth } from '../helpers.js'
import { advance, firings } from './schedule-helpers.js'

// The schedule calls as the other official clients put them on the wire. sdk-wire-capture.md
// captured no schedule call, so these bodies and headers are built from the clients' code with
// the quirks the captures show for their other calls: Python's `json.dumps` (", " separators),
// its malformed `application/json;charset:utf-8` on every request, its trailing slash
// (BASE_SCHEDULEURL ".../v3/schedules/") and `Content-Length: 0` on DELETE; C#'s text/plain;
// PHP's compact JSON and a JSON Content-Type on GET and DELETE.

const PY = { authorization: defaultAuth, 'content-type': 'application/json;charset:utf-8' }
const CS = { authorization: defaultAuth, 'content-type': 'text/plain; charset=utf-8' }
const PHP = { authorization: defaultAuth, 'content-type': 'application/json' }

describe('Python jpush 3.3.9 (schedulepayload + json.dumps)', () => {
  it('creates, lists, updates, reads msg_ids and deletes through /v3/schedules/', async () => {
    const { app } = await createTestApp()
    const body =
      '{"name": "py_task", "enabled": true, "trigger": {"single": {"time": "2026-01-01 09:00:00"}}, ' +
      '"push": {"audience": {"alias": ["alias1"]}, "platform": "all", "notification": {"alert": "hello", ' +
      '"ios": {"alert": "i", "badge": "+1", "sound": "default", "content-available": 1}}}}'
    const created = await app.inject({ method: 'POST', url: '/v3/schedules/', headers: PY, payload: body })
    expect(created.statusCode).toBe(200)
    const id = created.json().schedule_id
    const list = await app.inject({ method: 'GET', url: '/v3/schedules/?page=1', headers: PY })
    expect(list.json().total_count).toBe(1)
    const put = await app.inject({
      method: 'PUT',
      url: `/v3/schedules/${id}`,
      headers: PY,
      payload: '{"name": "py_renamed", "enabled": true}',
    })
    expect(put.json().name).toBe('py_renamed')
    await advance(app, 3_600_000)
    expect(await firings(app, id)).toHaveLength(1)
    const del = await app.inject({
      method: 'DELETE',
      url: `/v3/schedules/${id}`,
      headers: { ...PY, 'content-length': '0' },
    })
    // ScheduleResponse parses any non-empty body: `{}` is a dict, as the device calls give.
    expect([del.statusCode, del.body]).toEqual([200, '{}'])
  })
})

describe('C# (text/plain) and PHP (compact JSON, a Content-Type on GET and DELETE)', () => {
  it('C#: a periodical task', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({
      method: 'POST',
      url: '/v3/schedules',
      headers: CS,
      payload:
        '{"name":"cs_task","enabled":true,"trigger":{"periodical":{"start":"2026-01-01 08:00:00",' +
        '"end":"2026-01-31 00:00:00","time":"09:00:00","time_unit":"MONTH","frequency":1,"point":["01","15"]}},' +
        '"push":{"platform":"all","audience":"all","notification":{"alert":"cs"}}}',
    })
    expect(res.statusCode).toBe(200)
  })

  it('PHP: GET and DELETE with a JSON Content-Type and no body', async () => {
    const { app } = await createTestApp()
    const created = await app.inject({
      method: 'POST',
      url: '/v3/schedules',
      headers: PHP,
      payload:
        '{"name":"php_task","enabled":true,"trigger":{"single":{"time":"2026-01-02 09:00:00"}},' +
        '"push":{"platform":"all","audience":"all","notification":{"alert":"php"},"options":{"sendno":945971444,"apns_production":false}}}',
    })
    const id = created.json().schedule_id
    expect((await app.inject({ method: 'GET', url: `/v3/schedules/${id}`, headers: PHP })).statusCode).toBe(
      200,
    )
    expect(
      (await app.inject({ method: 'DELETE', url: `/v3/schedules/${id}`, headers: PHP })).statusCode,
    ).toBe(200)
  })
})

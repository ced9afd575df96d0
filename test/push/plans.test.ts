import { describe, expect, it } from 'vitest'
import { APP_KEY, basic, call, createTestApp } from '../helpers.js'
import { ANDROID_1, pushBody } from './helpers.js'

// Push plans (docs/jpush-wire.md "Push plans") with the bytes of cav's Go SDK (push/v3_*_plan*.go,
// the only SDK that calls them): its results embed the code and message at the top level
// (PlanCreateResult, PlansListResult), so these routes answer that shape, failures included.

const create = (app: Parameters<typeof call>[0], name: string, description = '') =>
  call(app, 'POST', '/v3/push_plan/create', `{"name":"${name}","description":"${description}"}`)

describe('/v3/push_plan', () => {
  it('create, update, and list the plans with the pushes that named them', async () => {
    const { app, clock } = await createTestApp()
    expect(await create(app, 'spring_sale', 'Spring sale pushes')).toMatchObject({
      status: 200,
      body: { code: 0, message: 'success' },
    })
    await create(app, 'newsletter')
    const update = await call(
      app,
      'PUT',
      '/v3/push_plan/update',
      '{"name":"newsletter","description":"Weekly"}',
    )
    expect(update.body).toEqual({ code: 0, message: 'success' })

    for (let i = 0; i < 2; i++) {
      clock.advance(60_000)
      const res = await call(
        app,
        'POST',
        '/v3/push',
        pushBody({ options: { business_operation_code: 'spring_sale' } }),
      )
      expect(res.status, res.raw).toBe(200)
    }
    // ListPlans(ctx, 1, 50, "", -1): every plan, newest first.
    const list = await call(app, 'GET', '/v3/push_plan/list?page=1&page_size=50&info=&send_source=-1')
    expect(list.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        total: 2,
        page: 1,
        page_size: 50,
        detail: [
          {
            name: 'newsletter',
            description: 'Weekly',
            push_count: 0,
            create_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
            last_used_time: '',
            send_source: 0,
          },
          expect.objectContaining({
            name: 'spring_sale',
            push_count: 2,
            last_used_time: expect.stringMatching(/:/),
          }),
        ],
      },
    })
    const found = await call(app, 'GET', '/v3/push_plan/list?info=Spring&send_source=0')
    expect(found.body.data.detail.map((p: { name: string }) => p.name)).toEqual(['spring_sale'])
    const web = await call(app, 'GET', '/v3/push_plan/list?send_source=1')
    expect(web.body.data).toMatchObject({ total: 0, detail: [] })
  })

  it.each([
    ['no name', '{"description":"x"}', 1002, 'Missing parameter: name'],
    [
      'a name with a space',
      '{"name":"spring sale"}',
      1003,
      'name is invalid: letters, digits and _, not starting with _, at most 50 characters',
    ],
    [
      'a name starting with _',
      '{"name":"_x"}',
      1003,
      'name is invalid: letters, digits and _, not starting with _, at most 50 characters',
    ],
  ])('create with %s: 400 {"code","message"}', async (_what, body, code, message) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push_plan/create', body)
    expect([res.status, res.body]).toEqual([400, { code, message }])
  })

  it('a plan created twice, or updated before it exists: 400 1003, flat; so is a failed login', async () => {
    const { app } = await createTestApp()
    await create(app, 'spring_sale')
    expect((await create(app, 'spring_sale')).body).toEqual({
      code: 1003,
      message: 'push plan spring_sale already exists',
    })
    const update = await call(app, 'PUT', '/v3/push_plan/update', { name: 'nope', description: 'x' })
    expect(update.body).toEqual({ code: 1003, message: 'push plan nope does not exist' })
    const login = await call(app, 'GET', '/v3/push_plan/list', undefined, {
      authorization: basic(APP_KEY, '000000000000000000000000'),
    })
    expect([login.status, login.body]).toEqual([401, { code: 1004, message: 'Authen failed' }])
  })

  it('a push naming a plan the app does not have is 1003; one made in the console (control plane) is send_source 1', async () => {
    const { app } = await createTestApp()
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ options: { business_operation_code: 'summer' } }),
    )
    expect([res.status, res.body]).toEqual([
      400,
      { error: { code: 1003, message: 'business_operation_code summer is not a push plan of this app' } },
    ])
    const made = await call(app, 'PUT', '/_sandbox/push/plans/summer', { description: 'made in the console' })
    expect(made.body).toMatchObject({ name: 'summer', send_source: 1, push_count: 0 })
    expect(
      (await call(app, 'POST', '/v3/push', pushBody({ options: { business_operation_code: 'summer' } })))
        .status,
    ).toBe(200)
    const list = await call(app, 'GET', '/v3/push_plan/list?send_source=1')
    expect(list.body.data.detail).toEqual([
      expect.objectContaining({ name: 'summer', push_count: 1, send_source: 1 }),
    ])
    expect((await call(app, 'GET', '/_sandbox/push/plans')).body.plans[0]).toMatchObject({
      name: 'summer',
      push_count: 1,
    })
    // A plan's name must read as one.
    const bad = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [ANDROID_1] }, options: { business_operation_code: 7 } }),
    )
    expect(bad.body.error).toEqual({ code: 1003, message: "'business_operation_code' value is invalid." })
    // Deleting it in the console: the plan is gone, and a second time there is none to delete.
    expect((await call(app, 'DELETE', '/_sandbox/push/plans/summer')).body).toEqual({
      name: 'summer',
      deleted: true,
    })
    const again = await call(app, 'DELETE', '/_sandbox/push/plans/summer')
    expect([again.status, again.body.error.code]).toEqual([404, 90047])
    expect((await call(app, 'GET', '/v3/push_plan/list')).body.data.detail).toEqual([])
  })
})

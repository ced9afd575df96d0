import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { APP_KEY, basic, call, createTestApp } from '../helpers.js'
import { ANDROID_1, ANDROID_2, IOS_1, received } from './helpers.js'

// Push templates (docs/jpush-wire.md "Push templates"): made in the control plane or the seed file
// (the vendor's console), pushed with the bytes of jiguang-sdk-java 5.x (PushClient.templateSend,
// TemplatePushSendParam: Jackson, `id` then `params`, each {audience, keys, trace_id}) and of cav's
// Go SDK (push/v3_template_send.go: {keys, audience, options, trace_id}). Answers are checked
// against jsdk's TemplatePushSendResult (code, message, data.push_list of TemplateResult: code,
// message, message_id, schedule_id, trace_id; any other key fails its ObjectMapper).

const ID = 'c65b34b96512'
const TEMPLATE = {
  name: 'Parcel departed',
  push: {
    platform: 'all',
    notification: { android: { alert: '{{content}}', title: '{{title}}' }, ios: { alert: '{{content}}' } },
    message: { msg_content: 'parcel:{{content}}' },
    options: { time_to_live: 600 },
  },
}
const ENTRY_KEYS = ['code', 'message', 'message_id', 'schedule_id', 'trace_id']

async function define(app: SandboxApp, id = ID, template: object = TEMPLATE) {
  const res = await call(app, 'PUT', `/_sandbox/push/templates/${id}`, template)
  expect(res.status, res.raw).toBe(200)
  return res.body
}

describe('push templates in the control plane', () => {
  it('take their variables from the push; a push that would be invalid, or an audience, is refused', async () => {
    const { app } = await createTestApp()
    expect(await define(app)).toMatchObject({ id: ID, name: 'Parcel departed', params: ['content', 'title'] })
    const bad = await call(app, 'PUT', '/_sandbox/push/templates/abc', {
      ...TEMPLATE,
      push: { ...TEMPLATE.push, platform: 'x' },
    })
    expect(bad.body.error).toEqual({
      code: 90020,
      message: '"push": is not a valid push once filled in: 1003 platform value is invalid',
    })
    const audience = await call(app, 'PUT', '/_sandbox/push/templates/abc', {
      ...TEMPLATE,
      push: { ...TEMPLATE.push, audience: 'all' },
    })
    expect(audience.body.error.message).toBe(
      '"push.audience": each template push gives its own audience: leave it out',
    )
    const made = await call(app, 'POST', '/_sandbox/push/templates', TEMPLATE)
    expect(made.body.id).toMatch(/^[0-9a-f]{12}$/)
    expect((await call(app, 'GET', '/_sandbox/push/templates')).body.templates).toHaveLength(2)
    expect((await call(app, 'DELETE', `/_sandbox/push/templates/${made.body.id}`)).body).toEqual({
      id: made.body.id,
      deleted: true,
    })
    expect((await call(app, 'GET', `/_sandbox/push/templates/${made.body.id}`)).body.error.code).toBe(90046)
  })
})

describe('POST /v3/push/template', () => {
  it('jiguang-sdk-java templateSend: one push per entry, each filled in, each a push like any other', async () => {
    const { app } = await createTestApp()
    await define(app)
    const raw =
      `{"id":"${ID}","params":[` +
      `{"audience":{"registration_id":["${ANDROID_1}"]},"keys":{"title":"Courier","content":"Parcel 77"},"trace_id":"t-1"},` +
      `{"audience":{"registration_id":["${IOS_1}"]},"keys":{"title":"Courier","content":"Parcel 78"},"trace_id":"t-2"}]}`
    const res = await call(app, 'POST', '/v3/push/template', raw, {
      'content-type': 'application/json; charset=utf-8',
    })
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        push_list: [
          { code: 0, message: 'success', message_id: expect.stringMatching(/^\d{17}$/), trace_id: 't-1' },
          { code: 0, message: 'success', message_id: expect.stringMatching(/^\d{17}$/), trace_id: 't-2' },
        ],
      },
    })
    expect(Object.keys(res.body)).toEqual(['code', 'message', 'data'])
    for (const entry of res.body.data.push_list)
      expect(Object.keys(entry).every(k => ENTRY_KEYS.includes(k))).toBe(true)
    const [first, second] = res.body.data.push_list
    const [android] = await received(app, `msg_id=${first.message_id}`)
    expect(android).toMatchObject({
      registration_id: ANDROID_1,
      notification: { alert: 'Parcel 77', title: 'Courier' },
    })
    const [ios] = await received(app, `msg_id=${second.message_id}`)
    expect(ios).toMatchObject({ registration_id: IOS_1, notification: { alert: 'Parcel 78' } })
    // Counted as any push: the report host knows it.
    const stats = await call(app, 'GET', `/v3/received?msg_ids=${first.message_id}`)
    expect(stats.body[0]).toMatchObject({ msg_id: first.message_id, android_received: 1 })
  })

  it('cav TemplateSend: aliases, options over the template’s (test_model), and entries that fail alone', async () => {
    const { app } = await createTestApp()
    await define(app)
    await call(app, 'POST', '/v3/test/model/add', { device_name: 'qa', registration_id: ANDROID_1 })
    const res = await call(app, 'POST', '/v3/push/template', {
      id: ID,
      params: [
        {
          keys: { title: 'a', content: 'b' },
          audience: { alias: ['alias1'] },
          options: { test_model: true },
          trace_id: 'qa',
        },
        { keys: { title: 'a' }, audience: { alias: ['alias2'] }, trace_id: 'no-content' },
        { keys: { title: 'a', content: 'c' }, audience: { alias: ['nobody'] } },
      ],
    })
    const [qa, missing, nobody] = res.body.data.push_list
    expect(qa).toMatchObject({ code: 0, trace_id: 'qa' })
    // test_model: of alias1's devices (1a…0e, 19…0e) only the test device.
    expect((await received(app, `msg_id=${qa.message_id}`)).map(m => m.registration_id)).toEqual([ANDROID_1])
    expect(missing).toEqual({
      code: 1002,
      message: "Missing parameter: params[1].keys.content (the template's {{content}})",
      trace_id: 'no-content',
    })
    expect(nobody).toEqual({
      code: 1011,
      message: 'cannot find user by this audience or has been inactive for more than 255 days',
      message_id: expect.stringMatching(/^\d{17}$/),
    })
  })

  it.each([
    [
      'an unknown template',
      { id: 'ffffffffffff', params: [{ audience: 'all' }] },
      1003,
      'template id ffffffffffff does not exist',
    ],
    ['no params', { id: ID }, 1002, 'Missing parameter: params'],
    ['empty params', { id: ID, params: [] }, 1003, 'params must be a non-empty array'],
    [
      'two kinds of audience',
      {
        id: ID,
        params: [{ audience: { registration_id: [ANDROID_1] } }, { audience: { alias: ['alias1'] } }],
      },
      1003,
      'the audiences of params are of different kinds: registration_id, alias',
    ],
    [
      'two kinds in one audience',
      { id: ID, params: [{ audience: { registration_id: [ANDROID_1], alias: ['alias1'] } }] },
      1003,
      'params[0].audience mixes registration_id and alias: one kind per push',
    ],
    [
      'a broadcast among others',
      { id: ID, params: [{ audience: 'all' }, { audience: 'all' }] },
      1003,
      'an audience of "all" allows one entry of params only',
    ],
    [
      'an entry without audience',
      { id: ID, params: [{ keys: {} }] },
      1002,
      'Missing parameter: params[0].audience',
    ],
  ])('%s: 400', async (_what, body, code, message) => {
    const { app } = await createTestApp()
    await define(app)
    const res = await call(app, 'POST', '/v3/push/template', body)
    expect([res.status, res.body]).toEqual([400, { code, message }])
  })

  it('tags, tag_and and tag_not are one kind', async () => {
    const { app } = await createTestApp()
    await define(app)
    const res = await call(app, 'POST', '/v3/push/template', {
      id: ID,
      params: [{ audience: { tag: ['tag1'], tag_not: ['vip'] }, keys: { title: 't', content: 'c' } }],
    })
    const [entry] = res.body.data.push_list
    expect((await received(app, `msg_id=${entry.message_id}`)).map(m => m.registration_id)).toEqual([
      ANDROID_1,
    ])
  })
})

describe('POST /v3/push/template/schedule', () => {
  it('makes one task per entry, which fires the filled-in template', async () => {
    const { app, clock } = await createTestApp()
    await define(app)
    const at = new Date(clock.now() + 3_600_000)
    const time = at.toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 19)
    // jsdk ScheduleTemplatePushSendParam: id, params, schedule_name, trigger.
    const res = await call(app, 'POST', '/v3/push/template/schedule', {
      id: ID,
      params: [
        {
          audience: { registration_id: [ANDROID_2] },
          keys: { title: 'later', content: 'soon' },
          trace_id: 's',
        },
      ],
      schedule_name: 'template_task',
      trigger: { single: { time } },
    })
    expect(res.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        schedule_list: [{ code: 0, message: 'success', schedule_id: expect.any(String), trace_id: 's' }],
      },
    })
    const id = res.body.data.schedule_list[0].schedule_id
    const task = await call(app, 'GET', `/v3/schedules/${id}`)
    expect(task.body).toMatchObject({
      name: 'template_task',
      push: { notification: { android: { alert: 'soon' } } },
    })
    clock.advance(3_600_000)
    await app.scheduler.tick()
    expect(await received(app, `registration_id=${ANDROID_2}`)).toEqual([
      expect.objectContaining({ notification: expect.objectContaining({ alert: 'soon', title: 'later' }) }),
    ])
  })

  it('a missing or wrong task section is refused as the Schedule API refuses it', async () => {
    const { app } = await createTestApp()
    await define(app)
    const params = [{ audience: 'all', keys: { title: 't', content: 'c' } }]
    const noName = await call(app, 'POST', '/v3/push/template/schedule', { id: ID, params, trigger: {} })
    expect(noName.body).toEqual({ code: 1002, message: 'Missing parameter: schedule_name' })
    const past = await call(app, 'POST', '/v3/push/template/schedule', {
      id: ID,
      params,
      schedule_name: 'x',
      trigger: { single: { time: '2001-01-01 00:00:00' } },
    })
    expect(past.body.code).toBe(8100)
  })
})

describe('push templates in the seed file', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'seed-')), 'seed.json')
    writeFileSync(path, text)
    return path
  }
  const app = (templates: unknown[]) =>
    JSON.stringify({
      apps: [
        {
          app_key: 'tmplapp00000000000000001',
          master_secret: 'tmplsecret00000000000001',
          push_templates: templates,
          push_plans: [{ name: 'welcome', description: 'first push' }],
        },
      ],
    })

  it('are the app’s from its first start, as its push plans are (the console’s: send_source 1)', async () => {
    const { app: sandbox } = await createTestApp({ seedFile: file(app([{ id: ID, ...TEMPLATE }])) })
    const auth = { authorization: basic('tmplapp00000000000000001', 'tmplsecret00000000000001') }
    const res = await call(
      sandbox,
      'POST',
      '/v3/push/template',
      { id: ID, params: [{ audience: { alias: ['alias2'] }, keys: { title: 'seed', content: 'made' } }] },
      auth,
    )
    expect(res.body.data.push_list[0].code).toBe(0)
    const plans = await call(sandbox, 'GET', '/v3/push_plan/list', undefined, auth)
    expect(plans.body.data.detail).toEqual([expect.objectContaining({ name: 'welcome', send_source: 1 })])
  })

  it('refuse the start over a template that would make no valid push, naming it', async () => {
    const seedFile = file(app([{ id: ID, name: 'x', push: { platform: 'all' } }]))
    await expect(createTestApp({ seedFile })).rejects.toThrow(
      'apps.0.push_templates.0.push: is not a valid push once filled in: 1002 Missing parameter: notification or message',
    )
  })

  it('refuse the start over one template id given twice', async () => {
    const seedFile = file(
      app([
        { id: ID, ...TEMPLATE },
        { id: ID, ...TEMPLATE },
      ]),
    )
    await expect(createTestApp({ seedFile })).rejects.toThrow('apps.0.push_templates.1.id: is given twice')
  })
})

// jiguang-sdk-java decodes every non-2xx answer of templateSend / scheduleTemplateSend as a flat
// TemplateResult (codec/ApiErrorDecoder.java:38-49, a default ObjectMapper: any key other than
// code, message, message_id, schedule_id, trace_id fails it, bean/push/other/TemplateResult.java)
// and turns a failure to decode into 500 "unknown error" (ApiErrorDecoder.java:87-89).
describe('template refusals, in the envelope jiguang-sdk-java decodes', () => {
  const TEMPLATE_RESULT_KEYS = new Set(['code', 'message', 'message_id', 'schedule_id', 'trace_id'])
  const decodes = (body: Record<string, unknown>) =>
    typeof body.code === 'number' && Object.keys(body).every(k => TEMPLATE_RESULT_KEYS.has(k))
  const params = [{ audience: 'all', keys: { title: 't', content: 'c' } }]
  const bodies = (now: number) => ({
    '/v3/push/template': { id: ID, params },
    '/v3/push/template/schedule': {
      id: ID,
      params,
      schedule_name: 'x',
      trigger: {
        single: {
          time: new Date(now + 3_600_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 19),
        },
      },
    },
  })

  it.each(['/v3/push/template', '/v3/push/template/schedule'] as const)(
    '%s: 400, 401, 403 and 429 are flat {code, message}',
    async url => {
      const { app, clock } = await createTestApp()
      await define(app)
      const body = bodies(clock.now())[url]
      const refused = await call(app, 'POST', url, { ...body, id: 'ffffffffffff' })
      expect([refused.status, refused.body]).toEqual([
        400,
        { code: 1003, message: 'template id ffffffffffff does not exist' },
      ])
      const login = await call(app, 'POST', url, body, { authorization: basic(APP_KEY, '0'.repeat(24)) })
      expect([login.status, login.body]).toEqual([401, { code: 1004, message: 'Authen failed' }])
      const a = app.store.apps.get(APP_KEY)!
      app.store.apps.updateSettings({ ...a, blacklisted: true })
      const black = await call(app, 'POST', url, body)
      expect([black.status, black.body]).toEqual([
        403,
        { code: 2003, message: 'The appKey is in black list.' },
      ])
      app.store.apps.updateSettings({ ...a, settings: { rate_limits: { push: 1 } } })
      await call(app, 'POST', url, body)
      const over = await call(app, 'POST', url, body)
      expect([over.status, over.body]).toEqual([429, { code: 2002, message: 'Rate limit exceeded' }])
      for (const res of [refused, login, black, over]) expect(decodes(res.body), res.raw).toBe(true)
    },
  )
})

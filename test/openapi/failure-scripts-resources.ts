import { IMAGE_LIMITS } from '../../src/push/images/rules.js'
import { PLAN_LIMITS } from '../../src/push/plans/index.js'
import { DEFAULT_APP_KEY } from '../../src/seed/fixtures.js'
import { ANDROID_1 } from '../push/helpers.js'
import { feignMultipart, png } from '../push/image-forms.js'
import type { Script, Tools } from './failure-scripts.js'
import { badTriggers, LATER, NEVER } from './failure-scripts-schedules.js'

// The documented failures of the push host's newer APIs (docs/jpush-wire.md): images, push
// templates, push plans, test devices. The bounds (images, plans, test devices per app) are filled
// through the store: a thousand calls would only test the loop.

const UNKNOWN_MEDIA = 'jgmedia-2-00000000-0000-0000-0000-000000000000'

/** Fills the app's images up to their bound, as many uploads would. */
function fillImages(t: Tools) {
  const now = t.clock.now()
  return t.app.store.write(() => {
    for (let i = 0; i < IMAGE_LIMITS.imagesPerApp; i++)
      t.app.store.pushImages.insert({
        mediaId: `jgmedia-2-fill-${i}`,
        appKey: DEFAULT_APP_KEY,
        imageType: 2,
        source: 'url',
        imageUrl: null,
        channels: {},
        createdAt: now,
        updatedAt: now,
        expiresAt: now + IMAGE_LIMITS.keptMs,
      })
  })
}

const urlChecks = async (t: Tools, method: 'POST' | 'PUT', url: string, create: boolean) => [
  ...(create ? [await t.fail(method, url)] : []),
  await t.fail(method, url, '[1]'),
  ...(create ? [await t.fail(method, url, { image_type: 9, image_url: 'https://a.example/i.png' })] : []),
  await t.fail(method, url, { image_type: 2, huawei_image_url: 7 }),
  await t.fail(method, url, {
    image_type: 2,
    image_url: `https://a.example/${'i'.repeat(IMAGE_LIMITS.urlChars)}`,
  }),
  await t.fail(method, url, { image_type: 2 }),
  ...(create
    ? [await t.fail(method, url, { image_type: 2, huawei_image_url: 'http://a.example/i.png' })]
    : []),
]

async function fileChecks(t: Tools, method: 'POST' | 'PUT', url: string, create: boolean) {
  const type: Record<string, string> = create ? { image_type: '2' } : {}
  const ok = feignMultipart(type, [{ field: 'oppo_file', name: 'a.png', bytes: png() }])
  return [
    ...(create ? [await t.raw(method, url, ok.contentType, '')] : []),
    await t.raw(method, url, 'application/json', '{}'),
    await t.raw(method, url, ok.contentType, ok.body.subarray(0, ok.body.length - 12)),
    ...(create ? [await t.raw(method, url, ...form({ image_type: '7' }))] : []),
    await t.raw(method, url, ...form(type, Buffer.concat([png(), Buffer.alloc(IMAGE_LIMITS.fileBytes)]))),
    await t.raw(method, url, ...form(type, Buffer.from('GIF89a'))),
    await t.raw(method, url, ...form(type, null)),
  ]
}

/** A form of `text` and an oppo_file of `bytes` (a PNG by default; null: no file). */
function form(text: Record<string, string>, bytes: Buffer | null = png()): [string, Buffer] {
  const f = feignMultipart(text, bytes ? [{ field: 'oppo_file', name: 'a.png', bytes }] : [])
  return [f.contentType, f.body]
}

async function templateChecks(t: Tools, url: string) {
  const ids = Array.from({ length: 1001 }, (_, i) => `1a0018970a8b${String(i).padStart(7, '0')}`)
  return [
    await t.fail('POST', url),
    await t.fail('POST', url, '[1]'),
    await t.fail('POST', url, { id: 5 }),
    await t.fail('POST', url, { id: 'c65b34b96512' }),
    await t.fail('POST', url, { id: 'c65b34b96512', params: [] }),
    await t.fail('POST', url, { id: 'c65b34b96512', params: [{}] }),
    await t.fail('POST', url, {
      id: 'c65b34b96512',
      params: [{ audience: { registration_id: [ANDROID_1], alias: ['a'] } }],
    }),
    await t.fail('POST', url, {
      id: 'c65b34b96512',
      params: [{ audience: { registration_id: [ANDROID_1] } }, { audience: { alias: ['a'] } }],
    }),
    await t.fail('POST', url, { id: 'c65b34b96512', params: [{ audience: 'all' }, { audience: 'all' }] }),
    await t.fail('POST', url, {
      id: 'c65b34b96512',
      params: [
        { audience: { registration_id: ids.slice(0, 1000) } },
        { audience: { registration_id: ids.slice(1000) } },
      ],
    }),
  ]
}

export const resourceScripts: Record<string, Script> = {
  'POST /v3/images/byurls': {
    run: async t => {
      const answers = await urlChecks(t, 'POST', '/v3/images/byurls', true)
      await fillImages(t)
      answers.push(
        await t.fail('POST', '/v3/images/byurls', { image_type: 2, image_url: 'https://a.example/i.png' }),
      )
      return answers
    },
  },
  'PUT /v3/images/byurls/{media_id}': {
    run: async t => {
      const answers = await urlChecks(t, 'PUT', `/v3/images/byurls/${UNKNOWN_MEDIA}`, false)
      answers.push(
        await t.fail('PUT', `/v3/images/byurls/${UNKNOWN_MEDIA}`, {
          huawei_image_url: 'https://a.example/i.png',
        }),
      )
      // A form the channel does not take is known once the image (its type) is.
      const { media_id } = await t.ok('POST', '/v3/images/byurls', {
        image_type: 2,
        image_url: 'https://a.example/i.png',
      })
      answers.push(
        await t.fail('PUT', `/v3/images/byurls/${media_id}`, { huawei_image_url: 'http://a.example/i.png' }),
      )
      return answers
    },
  },
  'POST /v3/images/byfiles': {
    run: async t => {
      const answers = await fileChecks(t, 'POST', '/v3/images/byfiles', true)
      await fillImages(t)
      answers.push(await t.raw('POST', '/v3/images/byfiles', ...form({ image_type: '2' })))
      return answers
    },
  },
  'PUT /v3/images/byfiles/{media_id}': {
    run: async t => [
      ...(await fileChecks(t, 'PUT', `/v3/images/byfiles/${UNKNOWN_MEDIA}`, false)),
      await t.raw('PUT', `/v3/images/byfiles/${UNKNOWN_MEDIA}`, ...form({})),
    ],
  },
  'POST /v3/push/template': {
    run: async t => [
      ...(await templateChecks(t, '/v3/push/template')),
      await t.fail('POST', '/v3/push/template', { id: 'c65b34b96512', params: [{ audience: 'all' }] }),
    ],
  },
  'POST /v3/push/template/schedule': {
    run: async t => {
      const url = '/v3/push/template/schedule'
      const params = [{ audience: 'all', keys: { x: 'y' } }]
      const task = (trigger: unknown, name: unknown = 'task') =>
        t.fail('POST', url, { id: 'c65b34b96512', params, schedule_name: name, trigger })
      const later = { single: { time: LATER } }
      const answers = [
        ...(await templateChecks(t, url)),
        await t.fail('POST', url, { id: 'c65b34b96512', params }),
        await t.fail('POST', url, { id: 'c65b34b96512', params, schedule_name: 'x' }),
        await task(later, 5),
        await task(later, 'x'.repeat(256)),
        await task(later, 'a b'),
      ]
      for (const trigger of badTriggers) answers.push(await task(trigger))
      answers.push(
        await task({ single: { time: '2025-12-31 10:00:00' } }),
        await task({ single: { time: '2027-06-01 10:00:00' } }),
        await task({
          periodical: {
            start: LATER,
            end: '2027-03-01 10:00:00',
            time: '10:00:00',
            time_unit: 'day',
            frequency: 1,
          },
        }),
        await task({ periodical: { frequency: 1, ...NEVER } }),
        await task(later),
      )
      return answers
    },
  },
  'POST /v3/push_plan/create': {
    run: async t => {
      const url = '/v3/push_plan/create'
      const answers = [
        await flat(t, 'POST', url),
        await flat(t, 'POST', url, '[1]'),
        await flat(t, 'POST', url, { name: '_x' }),
        await flat(t, 'POST', url, { name: 'x', description: 5 }),
      ]
      await t.ok('POST', url, { name: 'spring_sale' })
      answers.push(await flat(t, 'POST', url, { name: 'spring_sale' }))
      const now = t.clock.now()
      await t.app.store.write(() => {
        for (let i = t.app.store.pushPlans.count(DEFAULT_APP_KEY); i < PLAN_LIMITS.perApp; i++)
          t.app.store.pushPlans.insert({
            appKey: DEFAULT_APP_KEY,
            name: `p${i}`,
            description: '',
            sendSource: 0,
            createdAt: now,
          })
      })
      answers.push(await flat(t, 'POST', url, { name: 'one_more' }))
      return answers
    },
  },
  'PUT /v3/push_plan/update': {
    run: async t => [
      await flat(t, 'PUT', '/v3/push_plan/update'),
      await flat(t, 'PUT', '/v3/push_plan/update', '[1]'),
      await flat(t, 'PUT', '/v3/push_plan/update', { name: '_x' }),
      await flat(t, 'PUT', '/v3/push_plan/update', { name: 'x', description: 5 }),
      await flat(t, 'PUT', '/v3/push_plan/update', { name: 'spring_sale' }),
    ],
  },
  'GET /v3/push_plan/list': {
    run: async t => [
      await flat(t, 'GET', '/v3/push_plan/list?page=x'),
      await flat(t, 'GET', '/v3/push_plan/list?page_size=5000'),
    ],
  },
  'POST /v3/test/model/add': {
    run: async t => {
      const url = '/v3/test/model/add'
      const answers = [
        await t.fail('POST', url, '[1]'),
        await t.fail('POST', url, { registration_id: ANDROID_1 }),
        await t.fail('POST', url, { device_name: 5, registration_id: ANDROID_1 }),
        await t.fail('POST', url, { device_name: 'x' }),
        await t.fail('POST', url, { device_name: 'x', registration_id: `${ANDROID_1}_x` }),
        await t.fail('POST', url, { device_name: 'x', registration_id: '1a0018970a8b0fd6c0d' }),
      ]
      await t.ok('POST', url, { device_name: 'x', registration_id: ANDROID_1 })
      answers.push(await t.fail('POST', url, { device_name: 'x', registration_id: ANDROID_1 }))
      const now = t.clock.now()
      await t.app.store.write(() => {
        for (let i = 1; i < 1000; i++) {
          const rid = `1b${String(i).padStart(17, '0')}`
          t.app.store.pushDevices.insert(
            {
              appKey: DEFAULT_APP_KEY,
              registrationId: rid,
              platform: 'android',
              alias: null,
              mobile: null,
              online: true,
              lastOnlineAt: now,
              createdAt: now,
            },
            [],
          )
          t.app.store.pushTestDevices.add({
            appKey: DEFAULT_APP_KEY,
            registrationId: rid,
            deviceName: 'x',
            createdAt: now,
          })
        }
      })
      answers.push(await t.fail('POST', url, { device_name: 'x', registration_id: '1a0018970a8b0fd6c0f' }))
      return answers
    },
  },
  'PUT /v3/test/model/update': {
    run: async t => {
      const url = '/v3/test/model/update'
      return [
        await t.fail('PUT', url, '[1]'),
        await t.fail('PUT', url, { registration_id: ANDROID_1 }),
        await t.fail('PUT', url, { device_name: 5, registration_id: ANDROID_1 }),
        await t.fail('PUT', url, { device_name: 'x' }),
        await t.fail('PUT', url, { device_name: 'x', registration_id: `${ANDROID_1}_x` }),
        await t.fail('PUT', url, { device_name: 'x', registration_id: ANDROID_1 }),
      ]
    },
  },
  'GET /v3/test/model/list': {
    run: async t => [
      await t.fail('GET', '/v3/test/model/list?page=x'),
      await t.fail('GET', '/v3/test/model/list?page_size=5000'),
    ],
  },
}

/** A push plan route's failure: `{"code","message"}` at the top level, written as `fail` writes one. */
async function flat(t: Tools, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Basic ${Buffer.from(`${DEFAULT_APP_KEY}:5e987ac6d2e04d95a9d8f0d1`).toString('base64')}`,
    },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  const answer = res.json() as { code: number; message: string }
  return `${res.statusCode} ${answer.code} ${answer.message}`
}

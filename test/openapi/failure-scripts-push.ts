import { basic } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import type { Script, Tools } from './failure-scripts.js'

// The push host's documented failures (src/push/send/: each key of a push is declared beside its
// reader, payload.ts), each made to happen, in the order a push is checked.

const DAY = 86_400_000
const hi = { alert: 'hi' }
const to = (audience: unknown, extra: Record<string, unknown> = {}) => ({
  platform: 'all',
  audience,
  notification: hi,
  ...extra,
})

type Fail = (body: unknown) => Promise<string>

/** Before the audience is read: the body, the keys every push needs, the platform. */
export async function bodyChecks(fail: Fail, audience: unknown) {
  return [
    await fail({}),
    await fail([]),
    await fail({ platform: 'all' }),
    await fail({ platform: 'all', audience }),
    await fail({ platform: ['x'], audience, notification: hi }),
  ]
}

/** What a push says, whatever its audience, key by key; a group push drops the cid. */
export async function contentChecks(fail: Fail, audience: unknown, { cid = true } = {}) {
  return [
    await fail(to(audience, { live_activity: {} })),
    await fail({ platform: 'all', audience, live_activity: {} }),
    await fail({ platform: 'all', audience, notification: { alert: 5 } }),
    await fail({ platform: 'all', audience, notification: { ios: { alert: 'a', content_available: true } } }),
    await fail({ platform: 'all', audience, notification: { hmos: {} } }),
    await fail({ platform: 'all', audience, message: 'x' }),
    await fail({ platform: 'all', audience, message: {} }),
    await fail({
      platform: 'all',
      audience,
      message: { msg_content: 'x' },
      inapp_message: { inapp_message: true },
    }),
    await fail(to(audience, { sms_message: 'x' })),
    await fail(to(audience, { sms_message: {} })),
    await fail(to(audience, { options: { time_to_live: -1 } })),
    await fail(to(audience, { options: { business_operation_code: '_nope' } })),
    await fail(to(audience, { callback: { url: 'ftp://example.com/' } })),
    ...(cid ? [await fail(to(audience, { cid: 'nope' }))] : []),
    await fail({ platform: ['ios'], audience, notification: { ios: { alert: 'x'.repeat(2000) } } }),
  ]
}

/** An SM2-encrypted body's own failures (src/push/send/sm2.ts), with `X-Encrypt-Type: SM2`. */
export async function sm2Checks(t: Tools, path: string, headers: Record<string, string> = {}) {
  const sm2 = { ...headers, 'x-encrypt-type': 'SM2' }
  return [
    await t.fail('POST', path, { audience: 'all' }, sm2),
    await t.fail('POST', path, { audience: 'all', payload: 'not base64!' }, sm2),
    await t.fail('POST', path, { audience: 'all', payload: Buffer.from('{}').toString('base64') }, sm2),
  ]
}

/** The /v3/push checks of a body, in order, sent to `path` (with `headers`). */
async function pushChecks(t: Tools, path: string, headers: Record<string, string> = {}, { cid = true } = {}) {
  const fail = (body: unknown) => t.fail('POST', path, body, headers)
  return [
    ...(await bodyChecks(fail, 'all')),
    await fail(to({ registration_id: [`${ANDROID_1}_x`] })),
    await fail(to({})),
    ...(await contentChecks(fail, 'all', { cid })),
    ...(await sm2Checks(t, path, headers)),
  ]
}

const overrideUnknown = { options: { override_msg_id: '18100000000000099' } }

/**
 * What is refused once a push is read, after the override: a media_id the app does not have, one
 * of another image type than its field takes, a push plan the app does not have.
 */
export async function resourceChecks(t: Tools, fail: Fail, audience: unknown) {
  const { media_id } = await t.ok('POST', '/v3/images/byurls', {
    image_type: 2,
    image_url: 'https://example.com/icon.png',
  })
  const android = (fields: Record<string, unknown>) => ({
    notification: { android: { alert: 'hi', ...fields } },
  })
  return [
    await fail(to(audience, android({ large_icon: 'jgmedia-2-00000000-0000-0000-0000-000000000000' }))),
    await fail(to(audience, android({ big_pic_path: media_id }))),
    await fail(to(audience, { options: { business_operation_code: 'spring_sale' } })),
  ]
}

async function pushScript(t: Tools, path: string) {
  const fail = (body: unknown) => t.fail('POST', path, body)
  const answers = await pushChecks(t, path)
  answers.push(await t.fail('POST', path, to({ registration_id: [ANDROID_1] }, overrideUnknown)))
  answers.push(...(await resourceChecks(t, fail, { registration_id: [ANDROID_1] })))
  answers.push(await t.fail('POST', path, to({ tag: ['nobody'] })))
  await t.ok('PATCH', '/_sandbox/app', { settings: { broadcasts_per_day: 1 } })
  if (path === '/v3/push') await t.ok('POST', path, to('all'))
  // validate uses no broadcast: a push does, then validate is refused too.
  else await t.ok('POST', '/v3/push', to('all'))
  answers.push(await t.fail('POST', path, to('all')))
  return answers
}

export const pushScripts: Record<string, Script> = {
  'POST /v3/push': { run: t => pushScript(t, '/v3/push') },
  'POST /v3/push/validate': { run: t => pushScript(t, '/v3/push/validate') },
  'GET /v3/push/cid': {
    run: async t => [await t.fail('GET', '/v3/push/cid?count=0'), await t.fail('GET', '/v3/push/cid?type=x')],
  },
  'POST /v3/push/batch/regid/single': {
    run: async t => {
      const path = '/v3/push/batch/regid/single'
      const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`cid${i}`, {}]))
      return [
        await t.fail('POST', path, {}),
        await t.fail('POST', path, { pushlist: 'x' }),
        await t.fail('POST', path, { pushlist: {} }),
        await t.fail('POST', path, { pushlist: many }),
      ]
    },
  },
  'POST /v3/grouppush': {
    run: async t => {
      const group = { group_key: 'groupkey0000000000000001', master_secret: 'groupsecret0000000000001' }
      await t.ok('PUT', '/_sandbox/push/group', group)
      const headers = { authorization: basic(`group-${group.group_key}`, group.master_secret) }
      return [
        await t.fail('POST', '/v3/grouppush', to('all', { options: { override_msg_id: 1 } }), headers),
        ...(await pushChecks(t, '/v3/grouppush', headers, { cid: false })),
      ]
    },
  },
  'DELETE /v3/push/{msg_id}': {
    run: async t => {
      const unknown = await t.fail('DELETE', '/v3/push/18100000000000099')
      const { msg_id } = await t.ok('POST', '/v3/push', to({ registration_id: [ANDROID_1] }))
      if (msg_id !== '18100000000000001') throw new Error(`the app's first msg_id is ${msg_id}`)
      t.clock.advance(DAY + 1)
      return [unknown, await t.fail('DELETE', `/v3/push/${msg_id}`)]
    },
  },
}

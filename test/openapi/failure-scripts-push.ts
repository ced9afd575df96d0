import { cidDocs, pushDocs, validateDocs } from '../../src/push/send/docs.js'
import { batchDocs, groupPushDocs, withdrawDocs } from '../../src/push/send/variants-docs.js'
import { basic } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import type { Script, Tools } from './failure-scripts.js'

// The push host's documented failures (src/push/send/docs.ts, variants.ts), each made to happen.

const DAY = 86_400_000
const hi = { alert: 'hi' }
const to = (audience: unknown, extra: Record<string, unknown> = {}) => ({
  platform: 'all',
  audience,
  notification: hi,
  ...extra,
})

/** The /v3/push checks, in pushChecks' order, sent to `path` (with `headers`). */
async function pushChecks(t: Tools, path: string, headers: Record<string, string> = {}) {
  const fail = (body: unknown) => t.fail('POST', path, body, headers)
  return [
    await fail({}),
    await fail({ platform: 'all' }),
    await fail({ platform: 'all', audience: 'all' }),
    await fail(to({ registration_id: [`${ANDROID_1}_x`] })),
    await fail(to({})),
    ...(await contentChecks(fail)),
  ]
}

/** The checks of a push's content, whatever its audience. */
export async function contentChecks(fail: (body: unknown) => Promise<string>, audience: unknown = 'all') {
  return [
    await fail(to(audience, { options: { time_to_live: -1 } })),
    await fail(to(audience, { callback: { url: 'ftp://example.com/' } })),
    await fail({ platform: ['ios'], audience, notification: { ios: { alert: 'x'.repeat(2000) } } }),
    await fail({ platform: 'all', audience, notification: { ios: { alert: 'a', content_available: true } } }),
  ]
}

const overrideUnknown = { options: { override_msg_id: '18100000000000099' } }

async function pushScript(t: Tools, path: string) {
  const answers = await pushChecks(t, path)
  answers.push(await t.fail('POST', path, to({ registration_id: [ANDROID_1] }, overrideUnknown)))
  answers.push(await t.fail('POST', path, to({ tag: ['nobody'] })))
  await t.ok('PATCH', '/_sandbox/app', { settings: { broadcasts_per_day: 1 } })
  if (path === '/v3/push') await t.ok('POST', path, to('all'))
  // validate uses no broadcast: a push does, then validate is refused too.
  else await t.ok('POST', '/v3/push', to('all'))
  answers.push(await t.fail('POST', path, to('all')))
  return answers
}

export const pushScripts: Record<string, Script> = {
  'POST /v3/push': { docs: pushDocs, run: t => pushScript(t, '/v3/push') },
  'POST /v3/push/validate': { docs: validateDocs, run: t => pushScript(t, '/v3/push/validate') },
  'GET /v3/push/cid': {
    docs: cidDocs,
    run: async t => [await t.fail('GET', '/v3/push/cid?count=0'), await t.fail('GET', '/v3/push/cid?type=x')],
  },
  'POST /v3/push/batch/regid/single': {
    docs: batchDocs,
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
    docs: groupPushDocs,
    run: async t => {
      const group = { group_key: 'groupkey0000000000000001', master_secret: 'groupsecret0000000000001' }
      await t.ok('PUT', '/_sandbox/push/group', group)
      const headers = { authorization: basic(`group-${group.group_key}`, group.master_secret) }
      return [
        await t.fail('POST', '/v3/grouppush', to('all', { options: { override_msg_id: 1 } }), headers),
        ...(await pushChecks(t, '/v3/grouppush', headers)),
      ]
    },
  },
  'DELETE /v3/push/{msg_id}': {
    docs: withdrawDocs,
    run: async t => {
      const unknown = await t.fail('DELETE', '/v3/push/18100000000000099')
      const { msg_id } = await t.ok('POST', '/v3/push', to({ registration_id: [ANDROID_1] }))
      if (msg_id !== '18100000000000001') throw new Error(`the app's first msg_id is ${msg_id}`)
      t.clock.advance(DAY + 1)
      return [unknown, await t.fail('DELETE', `/v3/push/${msg_id}`)]
    },
  },
}

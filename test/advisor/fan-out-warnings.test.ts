import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { SLICED_ABOVE } from '../../src/push/send/index.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { curlForm } from '../push/file-forms.js'
import { redirectHttpsTo } from '../push/https-redirect.js'

// The audience rules (advisor/audience.ts) on every kind of push, not only a /v3/push written in
// the job that accepts it (issue 30): a push written in slices after its answer (read from a
// sample of its first targets), a batch push's entries, a group push's members, a file push.

const require = createRequire(import.meta.url)
const { JPushAsync: JPush } = require('jpush-async')

interface Warning {
  rule: string
  message: string
}
type Auth = { authorization: string }
const tenant = () => {
  const key = newKey('f')
  const secret = newKey('s')
  return { authorization: basic(key, secret), key, secret }
}
const on = (a: Auth) => ({ authorization: a.authorization, 'x-sandbox-warnings': 'on' })

/** The journal's entries of `path` warned of `rule`. */
async function warned(app: SandboxApp, auth: Auth, rule: string, path: string) {
  const { body } = await call(app, 'GET', `/_sandbox/requests?warning=${rule}`, undefined, {
    authorization: auth.authorization,
  })
  return (body.requests as Array<{ path: string; status: number; warnings: Warning[] }>).filter(
    e => e.path === path,
  )
}

const rid = (i: number) => `1f${String(i).padStart(17, '0')}`

/** `n` iOS devices of the app, development builds, tagged `dev`, straight through the store. */
async function devBuilds(app: SandboxApp, appKey: string, n: number, from = 0) {
  const now = app.clock.now()
  await app.store.write(() => {
    for (let i = from; i < from + n; i++)
      app.store.pushDevices.insert(
        {
          appKey,
          registrationId: rid(i),
          platform: 'ios',
          alias: null,
          mobile: null,
          online: true,
          lastOnlineAt: now,
          createdAt: now,
          apnsEnvironment: 'development',
        },
        ['dev'],
      )
  })
}

const toTag = (more: object = {}) => ({
  platform: ['ios'],
  audience: { tag: ['dev'] },
  notification: { alert: 'hi' },
  ...more,
})

describe('the audience rules on a push written in slices', () => {
  it('warns from a sample of its first targets (journal and header); not when apns_production matches', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'GET', '/_sandbox/push/devices', undefined, { authorization: auth.authorization })
    await devBuilds(app, auth.key, SLICED_ABOVE + 500)
    const wrong = await call(app, 'POST', '/v3/push', toTag(), on(auth))
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(200)
    // Answered before its slices: the warning is the sample's.
    expect(app.store.pushes.get(auth.key, wrong.body.msg_id)?.fanOut).not.toBeNull()
    expect(wrong.headers['x-sandbox-warning']).toMatch(
      /^apns-environment; options\.apns_production is true or absent \(APNs production\) but the push's \d+ iOS device\(s\) \(of its first \d+ targets: the push is written in slices\) are development builds/,
    )
    const [entry] = await warned(app, auth, 'apns-environment', '/v3/push')
    expect(entry).toMatchObject({ status: 200 })
    expect(entry!.warnings.map(w => w.rule)).toEqual(['apns-environment'])

    const right = await call(
      app,
      'POST',
      '/v3/push',
      toTag({ options: { apns_production: false } }),
      on(auth),
    )
    expect(right.status).toBe(200)
    expect(app.store.pushes.get(auth.key, right.body.msg_id)?.fanOut).not.toBeNull()
    expect(right.headers['x-sandbox-warning']).toBeUndefined()
    expect(await warned(app, auth, 'apns-environment', '/v3/push')).toHaveLength(1)
  })

  it('jpush-async to a large tag of development builds: warned in the journal', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'GET', '/_sandbox/push/devices', undefined, { authorization: auth.authorization })
    await devBuilds(app, auth.key, SLICED_ABOVE + 10)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const restore = redirectHttpsTo((app.server.address() as AddressInfo).port)
    try {
      const client = JPush.buildClient({ appKey: auth.key, masterSecret: auth.secret, isDebug: false })
      // apns_production true: production, but these builds are development ones.
      const res = await client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.tag('dev'))
        .setNotification('Hi', JPush.ios('Parcel left'))
        .setOptions(null, null, null, true)
        .send()
      expect(res.msg_id).toMatch(/^\d{17}$/)
    } finally {
      restore()
    }
    const [entry] = await warned(app, auth, 'apns-environment', '/v3/push')
    expect(entry!.warnings[0]!.message).toContain('of its first')
  })
})

describe('the audience rules on batch, group and file pushes', () => {
  it('batch single push: an entry to a development build is warned of, a right one is not', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'GET', '/_sandbox/push/devices', undefined, { authorization: auth.authorization })
    await devBuilds(app, auth.key, 2)
    const entry = (target: string, production?: boolean) => ({
      platform: ['ios'],
      target,
      notification: { alert: 'hi' },
      ...(production === undefined ? {} : { options: { apns_production: production } }),
    })
    const cid = () => `${auth.key}-${crypto.randomUUID()}`
    const wrong = await call(
      app,
      'POST',
      '/v3/push/batch/regid/single',
      { pushlist: { [cid()]: entry(rid(0)), [cid()]: entry(rid(1), false) } },
      on(auth),
    )
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(200)
    expect(wrong.headers['x-sandbox-warning']).toMatch(
      /^apns-environment; .*1 iOS device\(s\) are development builds/,
    )
    const right = await call(
      app,
      'POST',
      '/v3/push/batch/regid/single',
      { pushlist: { [cid()]: entry(rid(0), false) } },
      on(auth),
    )
    expect(right.status).toBe(200)
    expect(right.headers['x-sandbox-warning']).toBeUndefined()

    // (jpush-async has no batch push: its JPushAsync client lacks batchPushByRegid.)
    const entries = await warned(app, auth, 'apns-environment', '/v3/push/batch/regid/single')
    expect(entries).toHaveLength(1)
    expect(entries[0]!.warnings.map(w => w.rule)).toEqual(['apns-environment'])
  })

  it('group push: a member reaching only development builds is warned of on the group request', async () => {
    const group = { group_key: 'groupkeyfanout0000000001', master_secret: 'groupsecretfanout0000001' }
    const A = { appKey: 'fanoutgroupa000000000001', secret: 'fanoutgroupasecret000001' }
    const file = join(mkdtempSync(join(tmpdir(), 'group-')), 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({ apps: [{ app_key: A.appKey, master_secret: A.secret, settings: { group } }] }),
    )
    const { app } = await createTestApp({ seedFile: file })
    await devBuilds(app, A.appKey, 1)
    const headers = {
      authorization: basic(`group-${group.group_key}`, group.master_secret),
      'x-sandbox-warnings': 'on',
    }
    const body = (more: object = {}) => ({
      platform: ['ios'],
      audience: { registration_id: [rid(0)] },
      notification: { alert: 'group' },
      ...more,
    })
    const wrong = await call(app, 'POST', '/v3/grouppush', body(), headers)
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(200)
    expect(wrong.headers['x-sandbox-warning']).toMatch(/^apns-environment; /)
    const right = await call(
      app,
      'POST',
      '/v3/grouppush',
      body({ options: { apns_production: false } }),
      headers,
    )
    expect(right.status).toBe(200)
    expect(right.headers['x-sandbox-warning']).toBeUndefined()
    // The member app's journal keeps the group request with its warning.
    const member = { authorization: basic(A.appKey, A.secret) }
    const entries = await warned(app, member, 'apns-environment', '/v3/grouppush')
    expect(entries).toHaveLength(1)
    expect(entries[0]!.warnings.map(w => w.rule)).toEqual(['apns-environment'])
  })

  it('file push: a file of development builds is warned of (journal and header), sliced or not', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'GET', '/_sandbox/push/devices', undefined, { authorization: auth.authorization })
    await devBuilds(app, auth.key, SLICED_ABOVE + 20)
    const push = async (rids: string[], more: object = {}) => {
      const form = curlForm(rids.join('\n'))
      const upload = await app.inject({
        method: 'POST',
        url: '/v3/files/registration_id',
        headers: { authorization: auth.authorization, 'content-type': form.contentType },
        payload: form.body,
      })
      expect(upload.statusCode, upload.body).toBe(200)
      return call(
        app,
        'POST',
        '/v3/push/file',
        {
          platform: ['ios'],
          audience: { file: { file_id: upload.json().file_id } },
          notification: { alert: 'f' },
          ...more,
        },
        on(auth),
      )
    }
    const small = await push([rid(0), rid(1)])
    expect(small.status, JSON.stringify(small.body)).toBe(200)
    expect(small.headers['x-sandbox-warning']).toMatch(
      /^apns-environment; .*2 iOS device\(s\) are development/,
    )
    const large = await push(Array.from({ length: SLICED_ABOVE + 20 }, (_, i) => rid(i)))
    expect(large.status).toBe(200)
    expect(large.headers['x-sandbox-warning']).toMatch(/^apns-environment; .*written in slices/)
    const right = await push([rid(0)], { options: { apns_production: false } })
    expect(right.headers['x-sandbox-warning']).toBeUndefined()
    expect(await warned(app, auth, 'apns-environment', '/v3/push/file')).toHaveLength(2)
  })
})

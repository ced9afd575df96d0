import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { readSeedFile } from '../../src/seed/seed-file.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, IOS_1, rate, received } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// POST /v3/grouppush (jpush-api.md §5.14) with `group-<groupKey>:<groupMasterSecret>`.

const GROUP = { key: 'groupkey0000000000000001', secret: 'groupsecret0000000000001' }
const A = { appKey: 'groupappa000000000000001', secret: 'groupappasecret000000001' }
const B = { appKey: 'groupappb000000000000001', secret: 'groupappbsecret000000001' }
const BLACK = { appKey: 'groupappc000000000000001', secret: 'groupappcsecret000000001' }
const groupAuth = { authorization: basic(`group-${GROUP.key}`, GROUP.secret) }
const as = (app: { appKey: string; secret: string }) => ({ authorization: basic(app.appKey, app.secret) })

function seedFile(extra: Record<string, unknown> = {}): string {
  const group = { group_key: GROUP.key, master_secret: GROUP.secret }
  const file = join(mkdtempSync(join(tmpdir(), 'group-')), 'seed.json')
  writeFileSync(
    file,
    JSON.stringify({
      apps: [
        { app_key: A.appKey, master_secret: A.secret, settings: { group } },
        { app_key: B.appKey, master_secret: B.secret, settings: { group, broadcasts_per_day: 1 } },
        { app_key: BLACK.appKey, master_secret: BLACK.secret, blacklisted: true, settings: { group } },
      ],
      ...extra,
    }),
  )
  return file
}

const body = (extra: Record<string, unknown> = {}) => ({
  platform: 'all',
  audience: { registration_id: [ANDROID_1] },
  notification: { alert: 'to the whole group' },
  options: { sendno: 77 },
  ...extra,
})

const pushAs = (app: SandboxApp, b: unknown, headers = groupAuth) =>
  call(app, 'POST', '/v3/grouppush', b, headers)

describe('group push', () => {
  it('pushes once per member app, each its own msg_id; a refused member gets its own error', async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const res = await pushAs(app, body())
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      group_msgid: expect.stringMatching(/^\d{17}$/),
      [A.appKey]: { msg_id: expect.stringMatching(/^\d{17}$/), sendno: '77' },
      [B.appKey]: { msg_id: expect.stringMatching(/^\d{17}$/), sendno: '77' },
      [BLACK.appKey]: { error: { code: 2003, message: 'The appKey is in black list.' } },
    })
    expect(Object.keys(res.body)[0]).toBe('group_msgid')
    // Each member's own device got its own push, counted in its own statistics.
    const msgA = res.body[A.appKey].msg_id
    expect((await received(app, `msg_id=${msgA}`)).length).toBe(0) // the default app sees nothing
    const seenA = await call(app, 'GET', `/_sandbox/push/messages?msg_id=${msgA}`, undefined, as(A))
    expect(seenA.body.messages.map((m: { registration_id: string }) => m.registration_id)).toEqual([
      ANDROID_1,
    ])
    const statsB = await call(
      app,
      'GET',
      `/v3/received?msg_ids=${res.body[B.appKey].msg_id}`,
      undefined,
      as(B),
    )
    expect(statsB.body[0].android_received).toBe(1)
    // The same msg_id is unknown to the other member.
    const crossed = await call(app, 'GET', `/_sandbox/push/messages?msg_id=${msgA}`, undefined, as(B))
    expect(crossed.body.messages).toEqual([])
  })

  it("each member's own limits: broadcast limit 2008, no target 1011 with its msg_id", async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const first = await pushAs(app, body({ audience: 'all' }))
    expect(first.body[B.appKey].msg_id).toMatch(/^\d{17}$/)
    const second = await pushAs(app, body({ audience: 'all' }))
    expect(second.body[A.appKey].msg_id).toMatch(/^\d{17}$/)
    expect(second.body[B.appKey]).toEqual({
      error: { code: 2008, message: 'Broadcast push times exceed the limit of today' },
    })
    // B has no device with this tag; A got one.
    await call(app, 'POST', '/_sandbox/push/devices', { platform: 'ios', tags: ['only_a'] }, as(A))
    const tagged = await pushAs(app, body({ audience: { tag: ['only_a'] } }))
    expect(tagged.body[A.appKey]).toEqual({ msg_id: expect.any(String), sendno: '77' })
    expect(tagged.body[B.appKey]).toEqual({
      msg_id: expect.stringMatching(/^\d{17}$/),
      error: {
        code: 1011,
        message: 'cannot find user by this audience or has been inactive for more than 255 days',
      },
    })
  })

  it('counts one call in each member app push window; the headers are the tightest', async () => {
    const seed = seedFile()
    const { app } = await createTestApp({ seedFile: seed })
    await call(app, 'GET', '/v3/push/cid', undefined, as(A))
    await call(app, 'GET', '/v3/push/cid', undefined, as(A))
    const res = await pushAs(app, body())
    expect(rate(res.headers)).toEqual(['600', '597', '60'])
    const own = await call(app, 'GET', '/v3/push/cid', undefined, as(B))
    expect(rate(own.headers)).toEqual(['600', '598', '60'])
  })

  it('a member over its rate window is refused alone (2002)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'group-')), 'seed.json')
    const group = { group_key: GROUP.key, master_secret: GROUP.secret }
    writeFileSync(
      file,
      JSON.stringify({
        apps: [
          { app_key: A.appKey, master_secret: A.secret, settings: { group, rate_limits: { push: 1 } } },
          { app_key: B.appKey, master_secret: B.secret, settings: { group } },
        ],
      }),
    )
    const { app } = await createTestApp({ seedFile: file })
    await call(app, 'GET', '/v3/push/cid', undefined, as(A))
    const res = await pushAs(app, body())
    expect(res.body[A.appKey]).toEqual({ error: { code: 2002, message: 'Rate limit exceeded' } })
    expect(res.body[B.appKey].msg_id).toMatch(/^\d{17}$/)
  })

  it('refuses what no member could push: body errors, override_msg_id (1003)', async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const missing = await pushAs(app, { platform: 'all', notification: { alert: 'x' } })
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: { code: 1002, message: 'Missing parameter: audience' } },
    ])
    const override = await pushAs(app, body({ options: { override_msg_id: '18100000000000001' } }))
    expect([override.status, override.body]).toEqual([
      400,
      { error: { code: 1003, message: 'override_msg_id is not supported by group push' } },
    ])
    // A cid names one app: ignored, every member pushes.
    const withCid = await pushAs(app, body({ cid: `${A.appKey}-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b` }))
    expect(withCid.body[B.appKey].msg_id).toMatch(/^\d{17}$/)
  })

  it('credentials: wrong secret, unknown group, an app pair 401 1004; a malformed group key 400 1008', async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const cases: Array<[string, number, number]> = [
      [basic(`group-${GROUP.key}`, 'wrongsecret0000000000001'), 401, 1004],
      [basic(`group-${newKey('g')}`, GROUP.secret), 401, 1004],
      [basic(A.appKey, A.secret), 401, 1004],
      [basic('group-short', GROUP.secret), 400, 1008],
    ]
    for (const [authorization, status, code] of cases) {
      const res = await pushAs(app, body(), { authorization })
      expect([res.status, res.body.error.code], authorization).toEqual([status, code])
    }
    const none = await app.inject({ method: 'POST', url: '/v3/grouppush', payload: body() })
    expect([none.statusCode, none.json().error.code]).toEqual([401, 1004])
    const get = await call(app, 'GET', '/v3/grouppush', undefined, groupAuth)
    expect([get.status, get.body.error.code]).toEqual([405, 1001])
  })

  it('the seed file refuses two secrets for one group, and bad keys', () => {
    const group = (secret: string) => ({ group: { group_key: GROUP.key, master_secret: secret } })
    const file = join(mkdtempSync(join(tmpdir(), 'group-')), 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({
        apps: [
          { app_key: A.appKey, master_secret: A.secret, settings: group(GROUP.secret) },
          { app_key: B.appKey, master_secret: B.secret, settings: group('othersecret0000000000001') },
        ],
      }),
    )
    expect(() => readSeedFile(file)).toThrow(/apps\.1\.settings\.group\.master_secret: differs/)
    writeFileSync(
      file,
      JSON.stringify({ apps: [{ app_key: A.appKey, master_secret: A.secret, settings: group('x') }] }),
    )
    expect(() => readSeedFile(file)).toThrow(/settings\.group\.master_secret: must be 24 letters or digits/)
  })
})

describe('group membership through the control plane', () => {
  it('PUT, GET and DELETE /_sandbox/push/group join and leave a group for the calling app only', async () => {
    const { app } = await createTestApp()
    const one = { authorization: basic(newKey('m'), newKey('s')) }
    const two = { authorization: basic(newKey('m'), newKey('s')) }
    const key = newKey('g')
    const secret = newKey('s')
    const put = await call(app, 'PUT', '/_sandbox/push/group', { group_key: key, master_secret: secret }, one)
    expect(put.status).toBe(200)
    expect(put.body.members).toHaveLength(1)
    await call(app, 'PUT', '/_sandbox/push/group', { group_key: key, master_secret: secret }, two)
    expect((await call(app, 'GET', '/_sandbox/push/group', undefined, one)).body.members).toHaveLength(2)
    const res = await pushAs(app, body(), { authorization: basic(`group-${key}`, secret) })
    expect(Object.keys(res.body)).toHaveLength(3)
    // Same key, another secret: a group of its own, never the first one.
    const three = { authorization: basic(newKey('m'), newKey('s')) }
    const other = newKey('s')
    await call(app, 'PUT', '/_sandbox/push/group', { group_key: key, master_secret: other }, three)
    const alone = await pushAs(app, body(), { authorization: basic(`group-${key}`, other) })
    expect(Object.keys(alone.body)).toHaveLength(2)
    const left = await call(app, 'DELETE', '/_sandbox/push/group', undefined, two)
    expect(left.body).toEqual({ group_key: null, master_secret: null, members: [] })
    const after = await pushAs(app, body(), { authorization: basic(`group-${key}`, secret) })
    expect(Object.keys(after.body)).toHaveLength(2) // group_msgid and the one member left
    const bad = await call(
      app,
      'PUT',
      '/_sandbox/push/group',
      { group_key: 'short', master_secret: secret },
      one,
    )
    expect([bad.status, bad.body.error.code]).toEqual([400, 90020])
    expect(bad.body.error.message).toContain('group_key')
  })
})

describe('official clients', () => {
  it('jpush-async with isGroup pushes to /v3/grouppush', async () => {
    const require = createRequire(import.meta.url)
    const { JPushAsync: JPush } = require('jpush-async')
    const { app } = await createTestApp({ seedFile: seedFile() })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const restore = redirectHttpsTo((app.server.address() as AddressInfo).port)
    try {
      const client = JPush.buildClient({
        appKey: GROUP.key,
        masterSecret: GROUP.secret,
        isDebug: false,
        isGroup: true,
      })
      const res = await client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.alias('alias1'))
        .setNotification('hi')
        .send()
      expect(res.group_msgid).toMatch(/^\d{17}$/)
      expect(res[A.appKey]).toEqual({ msg_id: expect.stringMatching(/^\d{17}$/), sendno: expect.any(String) })
      expect(res[BLACK.appKey].error.code).toBe(2003)
      const seen = await call(
        app,
        'GET',
        `/_sandbox/push/messages?msg_id=${res[B.appKey].msg_id}`,
        undefined,
        as(B),
      )
      expect(seen.body.messages.map((m: { registration_id: string }) => m.registration_id).sort()).toEqual(
        [ANDROID_1, IOS_1].sort(),
      )
    } finally {
      restore()
    }
  })

  it("python jpush's GroupPush body byte for byte (spaced JSON, its malformed content-type)", async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const res = await app.inject({
      method: 'POST',
      url: '/v3/grouppush',
      headers: {
        ...groupAuth,
        'content-type': 'application/json;charset:utf-8',
        'user-agent': 'jpush-api-python-client',
      },
      payload: '{"audience": "all", "platform": "all", "notification": {"alert": "hello"}}',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()[A.appKey]).toEqual({ msg_id: expect.stringMatching(/^\d{17}$/), sendno: '0' })
  })
})

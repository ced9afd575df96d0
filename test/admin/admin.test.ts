import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { applySeed, provisionApp } from '../../src/seed/provision.js'
import { readSeedFile } from '../../src/seed/seed-file.js'
import { APP_KEY, basic, call, createTestApp, defaultAuth } from '../helpers.js'
import { curlForm } from '../push/file-forms.js'
import { goMultipart, javaMultipart } from '../push/image-forms.js'
import { apnsCertificate } from './certificates.js'

// The JPush Admin API (docs/jpush-wire.md "Admin API") on its host, admin.jpush.cn, with the bytes
// the official clients send: the Python client's Admin (hard-coded URL, requests: json.dumps with
// spaces, `content-type: application/json;charset:utf-8`, an empty POST for delete), the old Java
// AdminClient (Gson, and DELETE for delete; jcommon forms for certificates) and cav's Go SDK
// (admin/*.go). Answers checked against their result types: cav AppCreateResult (app_key,
// android_package, is_new_created, master_secret), the Java CreateAppResult, AppDeleteResult
// (success).

const DEV = basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET)
const HOST = 'admin.jpush.cn'
const PY = {
  'user-agent': 'jpush-api-python-client',
  connection: 'keep-alive',
  'content-type': 'application/json;charset:utf-8',
}

async function admin(
  app: SandboxApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: string | Buffer,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method,
    url,
    headers: { host: HOST, authorization: DEV, ...headers },
    payload,
  })
  return { status: res.statusCode, body: res.body === '' ? undefined : res.json(), raw: res.body }
}

/** The Python client's create_app: json.dumps of its entity, group_name None included. */
const pyCreate = (name: string, pkg: string, group: string | null = null) =>
  `{"app_name": "${name}", "android_package": "${pkg}", "group_name": ${group === null ? 'null' : `"${group}"`}}`

describe('POST /v1/app on admin.jpush.cn', () => {
  it('the Python client creates an app that works at once with its appKey:masterSecret', async () => {
    const { app } = await createTestApp()
    const res = await admin(app, 'POST', '/v1/app', pyCreate('aaa', 'cn.jpush.app'), PY)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({
      app_key: expect.stringMatching(/^[0-9a-f]{24}$/),
      is_new_created: true,
      android_package: 'cn.jpush.app',
      master_secret: expect.stringMatching(/^[0-9a-f]{24}$/),
    })
    const auth = { authorization: basic(res.body.app_key, res.body.master_secret) }
    // The default fixtures of any new app: its devices, its SMS balances.
    const pushed = await call(
      app,
      'POST',
      '/v3/push',
      { platform: 'all', audience: { alias: ['alias1'] }, notification: { alert: 'hi' } },
      auth,
    )
    expect(pushed.status, pushed.raw).toBe(200)
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, auth)).status).toBe(200)
    // It is the developer's: the developer's balances pay for it.
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body.developer.dev_key).toBe(
      DEFAULT_DEV_KEY,
    )
    // The same package again: that app, not a new one.
    const again = await admin(app, 'POST', '/v1/app', pyCreate('aaa', 'cn.jpush.app'), PY)
    expect(again.body).toEqual({ ...res.body, is_new_created: false })
  })

  it('the old Java AdminClient (Gson) and cav (Go) create apps; a group_name makes a group push work', async () => {
    const { app } = await createTestApp()
    const java = await admin(
      app,
      'POST',
      '/v1/app',
      '{"app_name":"shop","android_package":"com.example.shop","group_name":"stores"}',
      {
        'content-type': 'application/json',
      },
    )
    const go = await admin(
      app,
      'POST',
      '/v1/app',
      '{"app_name":"shop2","android_package":"com.example.shop2","group_name":"stores"}',
    )
    expect([java.body.is_new_created, go.body.is_new_created]).toEqual([true, true])
    const member = { authorization: basic(java.body.app_key, java.body.master_secret) }
    const group = (await call(app, 'GET', '/_sandbox/push/group', undefined, member)).body
    expect(group.members.sort()).toEqual([java.body.app_key, go.body.app_key].sort())
    const groupAuth = { authorization: basic(`group-${group.group_key}`, group.master_secret) }
    const pushed = await call(
      app,
      'POST',
      '/v3/grouppush',
      { platform: 'all', audience: 'all', notification: { alert: 'stores' } },
      groupAuth,
    )
    expect(Object.keys(pushed.body).sort()).toEqual(
      ['group_msgid', java.body.app_key, go.body.app_key].sort(),
    )
  })

  it.each([
    [
      'no credentials',
      undefined,
      {},
      401,
      4006,
      'Authentication failed: it is not a valid authorization string',
    ],
    [
      'an unknown devKey',
      pyCreate('a', 'cn.a.b'),
      { authorization: basic('nosuchdev000000000000001', DEFAULT_DEV_SECRET) },
      401,
      4004,
      'Authentication failed: dev_key does not exist',
    ],
    [
      'a wrong devSecret',
      pyCreate('a', 'cn.a.b'),
      { authorization: basic(DEFAULT_DEV_KEY, '000000000000000000000000') },
      401,
      4005,
      'Authentication failed: dev_key and dev_secret are not matched',
    ],
    [
      "an app's credentials",
      pyCreate('a', 'cn.a.b'),
      { authorization: defaultAuth },
      401,
      4004,
      'Authentication failed: dev_key does not exist',
    ],
    [
      'no app_name',
      '{"android_package":"cn.a.b"}',
      {},
      400,
      4002,
      'Request parameter app_name is null or empty',
    ],
    [
      'no android_package',
      '{"app_name":"a"}',
      {},
      400,
      4002,
      'Request parameter android_package is null or empty',
    ],
    [
      'a package that is none',
      '{"app_name":"a","android_package":"not a package"}',
      {},
      400,
      4003,
      'Request parameter android_package is invalid',
    ],
  ])('%s', async (_what, body, headers, status, code, message) => {
    const { app } = await createTestApp()
    const res = await admin(app, 'POST', '/v1/app', body, {
      ...(body === undefined ? { authorization: '' } : {}),
      ...headers,
    })
    expect([res.status, res.body]).toEqual([status, { error: { code, message } }])
  })

  it('answers only POST (405 4001); an unknown admin path is 404', async () => {
    const { app } = await createTestApp()
    // The vendor's words (docs/jpush-wire.md "Admin API"), naming the method refused.
    expect((await admin(app, 'GET', '/v1/app')).body).toEqual({
      error: { code: 4001, message: 'Get HTTP method is not allowed' },
    })
    expect((await admin(app, 'DELETE', '/v1/app')).body).toEqual({
      error: { code: 4001, message: 'Delete HTTP method is not allowed' },
    })
    expect((await admin(app, 'GET', '/v1/apps')).status).toBe(404)
  })
})

describe('deleting an app', () => {
  it('the Python client (an empty POST) removes it: its credentials no longer work', async () => {
    const { app } = await createTestApp({ autoProvision: false })
    const made = (await admin(app, 'POST', '/v1/app', pyCreate('gone', 'cn.gone.app'), PY)).body
    const auth = { authorization: basic(made.app_key, made.master_secret) }
    expect((await call(app, 'GET', '/v3/push/cid', undefined, auth)).status).toBe(200)
    const res = await admin(app, 'POST', `/v1/app/${made.app_key}/delete`, undefined, {
      ...PY,
      'content-length': '0',
    })
    expect([res.status, res.body]).toEqual([200, { success: 'Synchronized success' }])
    expect((await call(app, 'GET', '/v3/push/cid', undefined, auth)).status).toBe(401)
  })

  it('the old Java AdminClient sends DELETE; another developer’s app, or none, is HTTP 200 with 1013', async () => {
    const { app } = await createTestApp()
    const made = (await admin(app, 'POST', '/v1/app', '{"app_name":"j","android_package":"cn.j.app"}')).body
    const res = await admin(app, 'DELETE', `/v1/app/${made.app_key}/delete`, undefined, {
      'content-type': 'application/json',
    })
    expect(res.body).toEqual({ success: 'Synchronized success' })
    const none = await admin(app, 'POST', `/v1/app/${made.app_key}/delete`)
    expect([none.status, none.body]).toEqual([200, { error: { code: 1013, message: 'appkey is invalid' } }])
    // An auto-provisioned app has a developer of its own: not the default developer's.
    await call(app, 'GET', '/v3/push/cid', undefined, {
      authorization: basic('otherdevsapp000000000001', 'otherdevsappsecret000001'),
    })
    const foreign = await admin(app, 'POST', '/v1/app/otherdevsapp000000000001/delete')
    expect(foreign.body.error.code).toBe(1013)
  })
})

describe('the public default developer', () => {
  // A seed file whose app names no dev_key: before issue 33 it shared the default developer, whose
  // devKey:devSecret are in the README, so any tenant could delete it (reset, for a seed app) or
  // freeze it (PATCH /_sandbox/app with the default app's own public credentials).
  const seedApp = { app_key: 'seededvictim000000000001', master_secret: 'seededvictimsecret000001' }
  const seed = () => {
    const file = join(mkdtempSync(join(tmpdir(), 'admin-seed-')), 'seed.json')
    writeFileSync(file, JSON.stringify({ apps: [seedApp] }))
    return file
  }
  const victim = { authorization: basic(seedApp.app_key, seedApp.master_secret) }
  const text = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'V', days: '1' } }

  it("cannot delete, upload to or freeze a seed-file app that names no dev_key: it is not the developer's", async () => {
    const { app } = await createTestApp({ seedFile: seed() })
    const sent = await call(app, 'POST', '/v1/messages', text, victim)
    expect(sent.status).toBe(200)
    // The attacker holds only public credentials: the default developer's and the default app's.
    const removed = await admin(app, 'POST', `/v1/app/${seedApp.app_key}/delete`)
    expect([removed.status, removed.body]).toEqual([
      200,
      { error: { code: 1013, message: 'appkey is invalid' } },
    ])
    const uploaded = await admin(app, 'POST', `/v1/app/${seedApp.app_key}/certificate`, 'x', {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(uploaded.body.error.code).toBe(1013)
    const frozen = await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { developer: { frozen: true } },
      { authorization: defaultAuth },
    )
    expect(frozen.body.developer).toMatchObject({ dev_key: DEFAULT_DEV_KEY, frozen: true })
    // The victim is untouched: its text is still there, it still sends.
    const messages = (await call(app, 'GET', '/_sandbox/sms/messages', undefined, victim)).body.messages
    expect(messages.map((m: { msg_id: string }) => m.msg_id)).toEqual([sent.body.msg_id])
    expect((await call(app, 'POST', '/v1/messages', text, victim)).status).toBe(200)
    // Its developer is its own, as an auto-provisioned app's: the appKey and masterSecret reversed.
    const own = (await call(app, 'GET', '/_sandbox/app', undefined, victim)).body.developer
    const reversed = (s: string) => [...s].reverse().join('')
    expect(own).toMatchObject({ dev_key: reversed(seedApp.app_key), frozen: false })
    // Whose credentials (only the masterSecret's holder can know them) may delete it: it comes back from the file.
    const ownDev = basic(reversed(seedApp.app_key), reversed(seedApp.master_secret))
    const byOwner = await admin(app, 'POST', `/v1/app/${seedApp.app_key}/delete`, undefined, {
      authorization: ownDev,
    })
    expect(byOwner.body).toEqual({ success: 'Synchronized success' })
    expect((await call(app, 'GET', '/_sandbox/sms/messages', undefined, victim)).body.messages).toEqual([])
  })

  it('moves a seed-file app seeded on the default developer to a developer of its own at the next start', async () => {
    const { app, clock } = await createTestApp()
    // As an older build seeded it.
    provisionApp(app.store, { appKey: seedApp.app_key, masterSecret: seedApp.master_secret }, clock.now())
    expect(app.store.apps.get(seedApp.app_key)!.devKey).toBe(DEFAULT_DEV_KEY)
    applySeed(app.store, readSeedFile(seed()), clock.now())
    expect(app.store.apps.get(seedApp.app_key)!.devKey).toBe([...seedApp.app_key].reverse().join(''))
    expect((await admin(app, 'POST', `/v1/app/${seedApp.app_key}/delete`)).body.error.code).toBe(1013)
  })
})

describe('POST /v1/app/{appKey}/certificate', () => {
  const upload = (app: SandboxApp, appKey: string, f: { contentType: string; body: Buffer }) =>
    admin(app, 'POST', `/v1/app/${appKey}/certificate`, f.body, { 'content-type': f.contentType })

  it('the vendor’s curl example and the old Java client upload certificates that are kept', async () => {
    const { app, clock } = await createTestApp()
    const dev = apnsCertificate({
      cn: 'Apple Development IOS Push Services: com.example.app',
      password: '123456',
      now: clock.now(),
    })
    const pro = apnsCertificate({
      cn: 'Apple Production IOS Push Services: com.example.app',
      password: 'pro',
      now: clock.now(),
    })
    // curl -F devCertificatePassword=… -F proCertificatePassword=… -F devCertificateFile=@… -F proCertificateFile=@…
    const boundary = '------------------------5e0a1b2c3d4e5f60'
    const text = (k: string, v: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
    const file = (k: string, name: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${name}"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
        ),
        bytes,
        Buffer.from('\r\n'),
      ])
    const body = Buffer.concat([
      Buffer.from(text('devCertificatePassword', '123456') + text('proCertificatePassword', 'pro')),
      file('devCertificateFile', 'dev.p12', dev),
      file('proCertificateFile', 'pro.p12', pro),
      Buffer.from(`--${boundary}--\r\n`),
    ])
    const res = await upload(app, APP_KEY, { contentType: `multipart/form-data; boundary=${boundary}`, body })
    expect([res.status, res.body]).toEqual([200, { success: 'Synchronized success' }])
    const kept = (await call(app, 'GET', '/_sandbox/app/certificates')).body.certificates
    expect(kept).toEqual([
      expect.objectContaining({
        environment: 'dev',
        file_name: 'dev.p12',
        subject: 'Apple Development IOS Push Services: com.example.app',
        bundle_id: 'com.example.app',
        size: dev.length,
      }),
      expect.objectContaining({ environment: 'pro', file_name: 'pro.p12' }),
    ])
    const bytes = await app.inject({
      method: 'GET',
      url: '/_sandbox/app/certificates/dev',
      headers: { authorization: defaultAuth },
    })
    expect(bytes.rawPayload.equals(dev)).toBe(true)
    // The same file again: 1010. A new one (the Java client's form) replaces it.
    expect(
      (await upload(app, APP_KEY, { contentType: `multipart/form-data; boundary=${boundary}`, body })).body,
    ).toEqual({
      error: { code: 1010, message: 'certificate already exists' },
    })
    const universal = apnsCertificate({
      cn: 'Apple Push Services: com.example.app',
      password: '123456',
      now: clock.now(),
    })
    const java = javaMultipart({ devCertificatePassword: '123456' }, [
      {
        field: 'devCertificateFile',
        name: 'test_push_cert.p12',
        bytes: universal,
        type: 'application/octet-stream',
      },
    ])
    expect((await upload(app, APP_KEY, java)).body).toEqual({ success: 'Synchronized success' })
    expect((await call(app, 'GET', '/_sandbox/app/certificates')).body.certificates[0].subject).toBe(
      'Apple Push Services: com.example.app',
    )
  })

  it.each([
    [
      'a wrong password',
      { cn: 'Apple Development IOS Push Services: x', password: 'right' },
      'wrong',
      'devCertificateFile is no PKCS#12 file that opens with its password',
    ],
    [
      'a production certificate as development',
      { cn: 'Apple Production IOS Push Services: x', password: 'p' },
      'p',
      'devCertificateFile is no Apple push certificate for development',
    ],
    [
      'no Apple push certificate',
      { cn: 'example.com', password: 'p' },
      'p',
      'devCertificateFile is no Apple push certificate for development',
    ],
    [
      'an expired certificate',
      { cn: 'Apple Push Services: x', password: 'p', days: -1 },
      'p',
      'devCertificateFile is not valid now',
    ],
  ])('%s: HTTP 200, error 1012 (cav UploadCertificate)', async (_what, cert, password, why) => {
    const { app, clock } = await createTestApp()
    const bytes = apnsCertificate({ ...cert, now: clock.now() })
    const go = goMultipart({ devCertificatePassword: password }, [
      { field: 'devCertificateFile', name: 'dev.p12', bytes },
    ])
    const res = await upload(app, APP_KEY, go)
    expect([res.status, res.body]).toEqual([
      200,
      { error: { code: 1012, message: `certificate invalid: ${why}` } },
    ])
  })

  it('no certificate file is 1014; another developer’s app is 1013', async () => {
    const { app } = await createTestApp()
    const form = curlForm('x', { field: 'something' })
    expect((await upload(app, APP_KEY, form)).body).toEqual({
      error: { code: 1014, message: 'no certificate file in the request' },
    })
    expect((await upload(app, 'nosuchapp000000000000001', form)).body).toEqual({
      error: { code: 1013, message: 'appkey is invalid' },
    })
  })
})

describe('the admin host', () => {
  it('answers on the plain port at /admin/v1/…; /v1 without the admin host stays JSMS', async () => {
    const { app } = await createTestApp()
    const plain = await app.inject({
      method: 'POST',
      url: '/admin/v1/app',
      headers: { authorization: DEV, 'content-type': 'application/json' },
      payload: '{"app_name":"p","android_package":"cn.p.app"}',
    })
    expect(plain.json().is_new_created).toBe(true)
    const jsms = await app.inject({
      method: 'POST',
      url: '/v1/app',
      headers: { host: 'api.sms.jpush.cn', authorization: DEV, 'content-type': 'application/json' },
      payload: '{}',
    })
    expect([jsms.statusCode, jsms.json()]).toEqual([
      404,
      { error: { code: 50016, message: 'api not found' } },
    ])
    // The admin host with a port, and in capitals, is the admin host.
    const port = await admin(app, 'GET', '/v1/app', undefined, { host: 'Admin.JPush.cn:443' })
    expect(port.body.error.code).toBe(4001)
  })
})

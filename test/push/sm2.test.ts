import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { curlForm } from './file-forms.js'
import { ANDROID_1, ANDROID_2, IOS_1, IOS_2, received } from './helpers.js'

// SM2-encrypted pushes (issue 29 point 2; docs/fidelity.md "SM2-encrypted push"), in the bytes the
// vendor's Java SDKs send with `X-Encrypt-Type: SM2`:
// - jiguang-sdk-java (jsdk): client/PushClient.java:26-28 `sendWithSM2` → POST /v3/push with
//   `Content-Type: application/json; charset=utf-8` and `X-Encrypt-Type: SM2`; codec/ApiEncoder.java:101-107
//   and bean/push/other/SM2Push.java:16-23: Jackson `{"audience":<the push's audience>,"payload":"<base64>"}`.
// - jpush-api-java-client (java) with encrypt.type=SM2: push/PushClient.java:328-341 (sendPush :171,
//   sendPushValidate :180, sendFilePush :202), GroupPushClient.java:69-82 (sendGroupPush :53),
//   push/model/EncryptPushPayload.java:9-13: Gson without HTML escaping, `{"payload":…,"audience":…}`,
//   the audience as Gson writes Audience's fields (audience/Audience.java:17-19,
//   audience/AudienceTarget.java:15-16, enum names of AudienceType.java:4-11); jiguang-common
//   NativeHttpClient.java:142-150 sets `X-Encrypt-Type` and `Content-Type: application/json`.
// The sandbox cannot decrypt (JiGuang's private key): it reaches the clear audience's devices on
// every platform and records the push as encrypted, its content unread.

/**
 * A ciphertext shaped as BouncyCastle's SM2Engine writes it (jsdk utils/SM2Util.java:40-45): C1 an
 * uncompressed point (0x04‖X‖Y, 65 bytes), C2 as long as the text, C3 a 32-byte SM3 hash. Random
 * bytes in real life; fixed here. Base64 with padding, no line breaks (java.util.Base64, jcommon Base64).
 */
function ciphertext(text: string): string {
  const c1 = Buffer.concat([Buffer.from([0x04]), Buffer.alloc(64, 0x5a)])
  const c2 = Buffer.from(text, 'utf8').map(b => b ^ 0x33)
  return Buffer.concat([c1, c2, Buffer.alloc(32, 0xa5)]).toString('base64')
}

const SECRET_PUSH = '{"platform":"all","audience":"all","notification":{"alert":"secret"}}'
const PAYLOAD = ciphertext(SECRET_PUSH)

/** jsdk: Jackson writes audience, then payload (SM2Push.java:16-23). */
const jsdkBody = (audience: string) => `{"audience":${audience},"payload":"${PAYLOAD}"}`
/** java: Gson writes payload, then audience (EncryptPushPayload.java:11-13). */
const javaBody = (audience: string) => `{"payload":"${PAYLOAD}","audience":${audience}}`
/** java's Audience through Gson: `all`, `file`, then `targets` (omitted when null). */
const gson = (targets: Array<[string, string[]]>, file = false) =>
  `{"all":false,"file":${file},"targets":[${targets
    .map(([type, values]) => `{"audienceType":"${type}","values":${JSON.stringify(values)}}`)
    .join(',')}]}`

const JSDK_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-encrypt-type': 'SM2' }
const JAVA_HEADERS = { 'content-type': 'application/json', 'x-encrypt-type': 'SM2' }

async function send(app: SandboxApp, url: string, body: string, headers = JAVA_HEADERS, auth?: string) {
  return call(app, 'POST', url, body, auth ? { ...headers, authorization: auth } : headers)
}

const ridsOf = (messages: Array<Record<string, unknown>>) => messages.map(m => m.registration_id).sort()

describe('SM2-encrypted push', () => {
  it('jsdk sendWithSM2 on /v3/push: the clear audience is reached, the push recorded as encrypted', async () => {
    const { app } = await createTestApp()
    const res = await send(app, '/v3/push', jsdkBody(`{"registration_id":["${ANDROID_1}"]}`), JSDK_HEADERS)
    expect(res.status).toBe(200)
    // sendno is inside the ciphertext: "0", as a push without one.
    expect(res.body).toEqual({ sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) })
    const got = await received(app, `msg_id=${res.body.msg_id}`)
    expect(got).toEqual([
      expect.objectContaining({
        msg_id: res.body.msg_id,
        registration_id: ANDROID_1,
        platform: 'android',
        notification: null,
        message: null,
        encrypted: 'SM2',
      }),
    ])
  })

  it('java encrypt.type=SM2 on /v3/push: the Gson audience (tag, alias, all), every platform', async () => {
    const { app } = await createTestApp()
    const tagged = await send(app, '/v3/push', javaBody(gson([['TAG', ['tag1']]])))
    expect(tagged.status).toBe(200)
    expect(ridsOf(await received(app, `msg_id=${tagged.body.msg_id}`))).toEqual([ANDROID_1, IOS_1].sort())

    const both = await send(
      app,
      '/v3/push',
      javaBody(
        gson([
          ['TAG', ['tag2']],
          ['ALIAS', ['alias3']],
        ]),
      ),
    )
    expect(ridsOf(await received(app, `msg_id=${both.body.msg_id}`))).toEqual([IOS_2])

    // Audience.all() through Gson: {"all":true,"file":false} (targets null, omitted).
    const all = await send(app, '/v3/push', javaBody('{"all":true,"file":false}'))
    expect(all.body).toEqual({ sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) })
    expect(ridsOf(await received(app, `msg_id=${all.body.msg_id}`))).toEqual(
      [ANDROID_1, ANDROID_2, IOS_1, IOS_2].sort(),
    )
    // jsdk's "all" too.
    const jsdkAll = await send(app, '/v3/push', jsdkBody('"all"'), JSDK_HEADERS)
    expect((await received(app, `msg_id=${jsdkAll.body.msg_id}`)).length).toBe(4)
  })

  it('/v3/push/validate: a msg_id, nothing delivered; nobody matched is 1011 with its msg_id', async () => {
    const { app } = await createTestApp()
    const checked = await send(app, '/v3/push/validate', javaBody(gson([['REGISTRATION_ID', [IOS_1]]])))
    expect([checked.status, checked.body]).toEqual([
      200,
      { sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) },
    ])
    expect(await received(app, `msg_id=${checked.body.msg_id}`)).toEqual([])

    const nobody = await send(app, '/v3/push', jsdkBody('{"alias":["nobody_here"]}'), JSDK_HEADERS)
    expect([nobody.status, nobody.body]).toEqual([
      400,
      {
        msg_id: expect.stringMatching(/^\d{17}$/),
        error: {
          code: 1011,
          message: 'cannot find user by this audience or has been inactive for more than 255 days',
        },
      },
    ])
  })

  it('/v3/push/file: the Gson file audience names an uploaded file', async () => {
    const { app } = await createTestApp()
    const up = await app.inject({
      method: 'POST',
      url: '/v3/files/alias',
      headers: uploadHeaders(defaultAuth),
      payload: curlForm('alias1\nalias2\n').body,
    })
    const fileId = up.json().file_id as string
    // Audience.file(id) through Gson (Audience.java:105-108): file true, one FILE target.
    const res = await send(app, '/v3/push/file', javaBody(gson([['FILE', [fileId]]], true)))
    expect(res.status).toBe(200)
    expect(ridsOf(await received(app, `msg_id=${res.body.msg_id}`))).toEqual(
      [ANDROID_1, ANDROID_2, IOS_1].sort(),
    )
    // The wire's own form works too; an unknown file is /v3/push/file's 1003.
    const wire = await send(app, '/v3/push/file', jsdkBody(`{"file":{"file_id":"${fileId}"}}`))
    expect(wire.status).toBe(200)
    const unknown = await send(app, '/v3/push/file', javaBody(gson([['FILE', ['nope']]], true)))
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { error: { code: 1003, message: 'file_id nope does not exist' } },
    ])
  })

  it('/v3/grouppush and /v3/grouppush/file: each member reaches its devices', async () => {
    const { app } = await createTestApp()
    const group = { group_key: newKey('g'), master_secret: newKey('s') }
    const a = { appKey: newKey('a'), secret: newKey('m') }
    const b = { appKey: newKey('b'), secret: newKey('m') }
    for (const m of [a, b])
      await call(app, 'PUT', '/_sandbox/push/group', group, { authorization: basic(m.appKey, m.secret) })
    const groupAuth = basic(`group-${group.group_key}`, group.master_secret)

    const res = await send(
      app,
      '/v3/grouppush',
      javaBody(gson([['ALIAS', ['alias1']]])),
      JAVA_HEADERS,
      groupAuth,
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      group_msgid: expect.stringMatching(/^\d{17}$/),
      [a.appKey]: { sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) },
      [b.appKey]: { sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) },
    })
    const seenByA = await call(
      app,
      'GET',
      `/_sandbox/push/messages?msg_id=${res.body[a.appKey].msg_id}`,
      undefined,
      {
        authorization: basic(a.appKey, a.secret),
      },
    )
    expect(ridsOf(seenByA.body.messages)).toEqual([ANDROID_1, IOS_1].sort())

    const up = await app.inject({
      method: 'POST',
      url: '/v3/files/registration_id',
      headers: uploadHeaders(basic(a.appKey, a.secret)),
      payload: curlForm(`${ANDROID_2}\n`).body,
    })
    const fileId = up.json().file_id as string
    const byFile = await send(
      app,
      '/v3/grouppush/file',
      javaBody(gson([['FILE', [fileId]]], true)),
      JAVA_HEADERS,
      groupAuth,
    )
    expect(byFile.status).toBe(200)
    expect(byFile.body[a.appKey]).toEqual({ sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) })

    const broken = await send(app, '/v3/grouppush', '{"audience":"all"}', JAVA_HEADERS, groupAuth)
    expect([broken.status, broken.body]).toEqual([
      400,
      { error: { code: 1002, message: 'Missing parameter: payload' } },
    ])
  })

  it('a malformed encrypted body is a vendor error, never a 500', async () => {
    const { app } = await createTestApp()
    const cases: Array<[string, number, number, string]> = [
      ['{"audience":"all"}', 400, 1002, 'Missing parameter: payload'],
      ['{"audience":"all","payload":""}', 400, 1002, 'Missing parameter: payload'],
      ['{"audience":"all","payload":12}', 400, 1003, 'payload must be a base64 string of the SM2 ciphertext'],
      ['{"audience":"all","payload":"not base64!"}', 400, 1003, 'payload is not base64'],
      [
        `{"audience":"all","payload":"${Buffer.from(SECRET_PUSH).toString('base64')}"}`,
        400,
        1003,
        'payload is not an SM2 ciphertext (C1C2C3, starting 0x04)',
      ],
      // jsdk writes a null audience as null (SM2Push has no NON_NULL).
      [`{"audience":null,"payload":"${PAYLOAD}"}`, 400, 1002, 'Missing parameter: audience'],
      [`{"payload":"${PAYLOAD}"}`, 400, 1002, 'Missing parameter: audience'],
      ['[1,2]', 400, 1003, 'The request body must be a JSON object'],
      [
        javaBody('{"all":false,"file":false,"targets":[{"audienceType":"PHONE","values":["x"]}]}'),
        400,
        1003,
        'audience.targets must hold {"audienceType","values"} of a known type',
      ],
      [jsdkBody('{"registration_id":["bad id"]}'), 400, 1003, 'The registration_id bad id is invalid!'],
    ]
    for (const url of ['/v3/push', '/v3/push/validate', '/v3/push/file']) {
      for (const [body, status, code, message] of cases.slice(0, 8)) {
        const res = await send(app, url, body)
        expect([url, body, res.status, res.body?.error]).toEqual([url, body, status, { code, message }])
      }
    }
    for (const [body, status, code, message] of cases.slice(8)) {
      const res = await send(app, '/v3/push', body)
      expect([body, res.status, res.body?.error?.code, res.body?.error?.message]).toEqual([
        body,
        status,
        code,
        message,
      ])
    }
  })

  it('without the header, or with another encryption, the body is a clear push as before', async () => {
    const { app } = await createTestApp()
    const bare = await call(app, 'POST', '/v3/push', jsdkBody('"all"'))
    expect([bare.status, bare.body]).toEqual([
      400,
      { error: { code: 1002, message: 'Missing parameter: platform' } },
    ])
    // java sends an unsupported encrypt.type's header with a clear body (PushClient.java:342-343).
    const clear = await call(app, 'POST', '/v3/push', SECRET_PUSH, { 'x-encrypt-type': 'AES' })
    expect(clear.status).toBe(200)
    const got = await received(app, `msg_id=${clear.body.msg_id}`)
    expect(got[0]?.notification).toEqual(expect.objectContaining({ alert: 'secret' }))
  })
})

const uploadHeaders = (authorization: string) => ({
  'content-type': curlForm('x').contentType,
  authorization,
})

import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import type { RawForm } from './file-forms.js'
import { ANDROID_1, pushBody, received } from './helpers.js'
import { feignMultipart, goMultipart, javaMultipart, jpeg, png } from './image-forms.js'

// The image API (docs/jpush-wire.md "Images"), driven with the bytes the official clients send:
// jiguang-sdk-java 5.x (PushClient.addImageUrl… : Jackson JSON, feign-form multipart), the old Java
// client (ImageClient: Gson JSON, jcommon multipart) and cav's Go SDK (image/*.go). Answers are
// checked against their result classes: jsdk's ImageUrlAddResult rejects any other key.

/** jsdk ImageUrlAddResult / ImageFileAddResult (and cav AddByUrlResult): every key an answer may have. */
const JSDK_IMAGE_RESULT = [
  'media_id',
  'jiguang_image_url',
  'xiaomi_image_url',
  'huawei_image_url',
  'honor_image_url',
  'oppo_image_url',
  'fcm_image_url',
  'hmos_image_url',
]
const MEDIA_ID = /^jgmedia-[123]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const OPPO_ID = /^\d{7}_[0-9a-f]{24}$/

async function form(app: SandboxApp, method: 'POST' | 'PUT', url: string, f: RawForm) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: defaultAuth, 'content-type': f.contentType },
    payload: f.body,
  })
  return { status: res.statusCode, body: res.json() }
}

/** The Java SDKs' JSON: `Content-Type: application/json; charset=utf-8` and a compact body. */
async function json(app: SandboxApp, method: 'POST' | 'PUT', url: string, raw: string) {
  return call(app, method, url, raw, { 'content-type': 'application/json; charset=utf-8' })
}

describe('POST /v3/images/byurls', () => {
  it('jiguang-sdk-java addImageUrl: each channel adopts what it takes for a large icon', async () => {
    const { app } = await createTestApp()
    // Jackson, ImageUrlAddParam's field order, NON_NULL addresses.
    const res = await json(
      app,
      'POST',
      '/v3/images/byurls',
      '{"image_type":2,"image_url":"https://cdn.example.com/icon.png","huawei_image_url":"https://cdn.example.com/hw.png"}',
    )
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).every(k => JSDK_IMAGE_RESULT.includes(k))).toBe(true)
    expect(res.body).toEqual({
      media_id: expect.stringMatching(MEDIA_ID),
      jiguang_image_url: 'https://cdn.example.com/icon.png',
      huawei_image_url: 'https://cdn.example.com/hw.png',
      honor_image_url: 'https://cdn.example.com/icon.png',
      oppo_image_url: expect.stringMatching(OPPO_ID),
      fcm_image_url: 'https://cdn.example.com/icon.png',
      hmos_image_url: 'https://cdn.example.com/icon.png',
    })
    expect(res.body.media_id.startsWith('jgmedia-2-')).toBe(true)
    // What was given, and what each channel made of it, in the control plane.
    const shown = (await call(app, 'GET', `/_sandbox/push/images/${res.body.media_id}`)).body
    expect(shown).toMatchObject({
      image_type: 2,
      source: 'url',
      image_url: 'https://cdn.example.com/icon.png',
      channels: { oppo: { value: res.body.oppo_image_url, from: 'https://cdn.example.com/icon.png' } },
      files: [],
    })
  })

  it('the old Java ImageClient: a big picture by sdcard path for FCM; Huawei takes none (not processed)', async () => {
    const { app } = await createTestApp()
    // ImageUrlPayload.toJSON, Gson: image_type, image_url, then oppo, xiaomi, huawei, fcm, jiguang.
    const res = await json(
      app,
      'POST',
      '/v3/images/byurls',
      '{"image_type":1,"image_url":"http://cdn.example.com/big.jpg","huawei_image_url":"https://cdn.example.com/hw.jpg","fcm_image_url":"Pictures/big.jpg"}',
    )
    expect(res.body).toEqual({
      media_id: expect.stringMatching(/^jgmedia-1-/),
      jiguang_image_url: 'http://cdn.example.com/big.jpg',
      oppo_image_url: expect.stringMatching(OPPO_ID),
      fcm_image_url: 'Pictures/big.jpg',
    })
  })

  it("cav AddImageByUrl: a small icon, JPush's drawable and Huawei's /raw/ path", async () => {
    const { app } = await createTestApp()
    // Go's encoding/json, AddByUrlParam's order, omitempty.
    const res = await call(app, 'POST', '/v3/images/byurls', {
      image_type: 3,
      jiguang_image_url: 'ic_notify',
      huawei_image_url: '/raw/ic_small',
      honor_image_url: '/raw/ic_small',
    })
    expect(res.body).toEqual({
      media_id: expect.stringMatching(/^jgmedia-3-/),
      jiguang_image_url: 'ic_notify',
      huawei_image_url: '/raw/ic_small',
      honor_image_url: '/raw/ic_small',
    })
  })

  it.each([
    ['no body', undefined, 400, 1002, 'Missing parameter: image_type'],
    ['no image_type', { image_url: 'https://a.example/i.png' }, 400, 1002, 'Missing parameter: image_type'],
    [
      'an image_type that is none',
      { image_type: 4, image_url: 'https://a.example/i.png' },
      400,
      1003,
      'image_type is invalid: 1 big picture, 2 large icon, 3 small icon',
    ],
    [
      'no address at all',
      { image_type: 2 },
      400,
      1002,
      'Missing parameter: image_url or a channel image url',
    ],
    [
      'an address that is no string',
      { image_type: 2, oppo_image_url: 5 },
      400,
      1003,
      'oppo_image_url must be a string',
    ],
    [
      'Huawei given http for a large icon (it takes https only)',
      { image_type: 2, huawei_image_url: 'http://a.example/i.png' },
      400,
      1003,
      'huawei_image_url is invalid: for a large icon huawei takes an https:// address',
    ],
    [
      'a gif (jpg, jpeg and png only)',
      { image_type: 1, jiguang_image_url: 'https://a.example/i.gif' },
      400,
      1003,
      'jiguang_image_url is invalid: for a big picture jiguang takes an http:// address or an https:// address or a path relative to the sdcard, with its .jpg/.jpeg/.png suffix',
    ],
  ])('%s', async (_what, body, status, code, message) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/images/byurls', body)
    expect([res.status, res.body]).toEqual([status, { error: { code, message } }])
  })
})

describe('PUT /v3/images/byurls/{media_id}', () => {
  it('the old Java modifyImage: channels named change, the others keep theirs', async () => {
    const { app } = await createTestApp()
    const made = await call(app, 'POST', '/v3/images/byurls', {
      image_type: 2,
      image_url: 'https://cdn.example.com/v1.png',
    })
    const id = made.body.media_id
    // ImageUrlPayload.toJSON without image_type: image_url, huawei, fcm.
    const res = await json(
      app,
      'PUT',
      `/v3/images/byurls/${id}`,
      '{"image_url":"https://cdn.example.com/v2.png","huawei_image_url":"https://cdn.example.com/hw2.png","fcm_image_url":"ic_big"}',
    )
    expect(res.body).toEqual({
      ...made.body,
      huawei_image_url: 'https://cdn.example.com/hw2.png',
      fcm_image_url: 'ic_big',
    })
    const shown = (await call(app, 'GET', `/_sandbox/push/images/${id}`)).body
    expect(shown.image_url).toBe('https://cdn.example.com/v2.png')
  })

  it('an unknown media_id (or another app’s) is 1003', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', '/v3/images/byurls/jgmedia-2-00000000-0000-0000-0000-000000000000', {
      huawei_image_url: 'https://a.example/i.png',
    })
    expect([res.status, res.body.error]).toEqual([
      400,
      { code: 1003, message: 'media_id jgmedia-2-00000000-0000-0000-0000-000000000000 does not exist' },
    ])
  })
})

describe('POST and PUT /v3/images/byfiles', () => {
  it('jiguang-sdk-java addImageFile (feign-form): OPPO answers an id; the bytes are kept as sent', async () => {
    const { app } = await createTestApp()
    const icon = png(144, 144)
    const res = await form(
      app,
      'POST',
      '/v3/images/byfiles',
      feignMultipart({ image_type: '2' }, [
        { field: 'xiaomi_file', name: 'mi.png', bytes: icon },
        { field: 'oppo_file', name: 'oppo.png', bytes: icon },
      ]),
    )
    expect(res.status).toBe(200)
    // Xiaomi stopped taking pushed images in 2023-08: its file is kept, not answered.
    expect(res.body).toEqual({
      media_id: expect.stringMatching(/^jgmedia-2-/),
      oppo_image_url: expect.stringMatching(OPPO_ID),
    })
    const shown = (await call(app, 'GET', `/_sandbox/push/images/${res.body.media_id}`)).body
    expect(shown.files).toEqual([
      expect.objectContaining({
        channel: 'oppo',
        file_name: 'oppo.png',
        content_type: 'image/png',
        width: 144,
        height: 144,
        size: icon.length,
      }),
      expect.objectContaining({ channel: 'xiaomi', file_name: 'mi.png', content_type: 'image/png' }),
    ])
    const bytes = await app.inject({
      method: 'GET',
      url: shown.files[0].url,
      headers: { authorization: defaultAuth },
    })
    expect(bytes.headers['content-type']).toBe('image/png')
    expect(bytes.rawPayload.equals(icon)).toBe(true)
  })

  it('the old Java ImageClient (jcommon forms): upload, then PUT a new OPPO file', async () => {
    const { app } = await createTestApp()
    const made = await form(
      app,
      'POST',
      '/v3/images/byfiles',
      javaMultipart({ image_type: '1' }, [{ field: 'oppo_file', name: 'a.jpg', bytes: jpeg(1024, 512) }]),
    )
    expect(made.body).toEqual({
      media_id: expect.stringMatching(/^jgmedia-1-/),
      oppo_image_url: expect.stringMatching(OPPO_ID),
    })
    const changed = await form(
      app,
      'PUT',
      `/v3/images/byfiles/${made.body.media_id}`,
      javaMultipart({}, [{ field: 'oppo_file', name: 'b.png', bytes: png() }]),
    )
    expect(changed.body.media_id).toBe(made.body.media_id)
    expect(changed.body.oppo_image_url).not.toBe(made.body.oppo_image_url)
    const shown = (await call(app, 'GET', `/_sandbox/push/images/${made.body.media_id}`)).body
    expect(shown.files).toEqual([expect.objectContaining({ channel: 'oppo', file_name: 'b.png', width: 2 })])
  })

  it('cav AddImageByFile (Go multipart, application/octet-stream parts): the format is read from the bytes', async () => {
    const { app } = await createTestApp()
    const res = await form(
      app,
      'POST',
      '/v3/images/byfiles',
      goMultipart({ image_type: '3' }, [{ field: 'oppo_file', name: 'small.jpg', bytes: jpeg() }]),
    )
    // OPPO takes no small icon: not processed, but the file is kept.
    expect(res.body).toEqual({ media_id: expect.stringMatching(/^jgmedia-3-/) })
    const shown = (await call(app, 'GET', `/_sandbox/push/images/${res.body.media_id}`)).body
    expect(shown.files[0]).toMatchObject({ content_type: 'image/jpeg', width: 120, height: 80 })
  })

  it.each([
    [
      'no file',
      feignMultipart({ image_type: '2' }, []),
      400,
      1002,
      'Missing parameter: xiaomi_file or oppo_file',
    ],
    [
      'a file that is no image',
      feignMultipart({ image_type: '2' }, [
        { field: 'oppo_file', name: 'a.png', bytes: Buffer.from('GIF89a') },
      ]),
      400,
      1003,
      'oppo_file is not a jpg or png image',
    ],
    [
      'a file over 2 MiB',
      feignMultipart({ image_type: '2' }, [
        { field: 'oppo_file', name: 'a.png', bytes: Buffer.concat([png(), Buffer.alloc(2 * 1024 * 1024)]) },
      ]),
      400,
      1005,
      'Message is too long: oppo_file is over 2097152 bytes',
    ],
    [
      'no image_type',
      feignMultipart({}, [{ field: 'oppo_file', name: 'a.png', bytes: png() }]),
      400,
      1002,
      'Missing parameter: image_type',
    ],
    [
      'not a form',
      { contentType: 'application/json', body: Buffer.from('{"image_type":2}') },
      400,
      1003,
      'the images must be sent as multipart/form-data',
    ],
  ])('%s', async (_what, f, status, code, message) => {
    const { app } = await createTestApp()
    const res = await form(app, 'POST', '/v3/images/byfiles', f as RawForm)
    expect([res.status, res.body]).toEqual([status, { error: { code, message } }])
  })
})

describe('a push naming a media_id', () => {
  const image = async (app: SandboxApp, type: number) =>
    (
      await call(app, 'POST', '/v3/images/byurls', {
        image_type: type,
        image_url: 'https://cdn.example.com/i.png',
      })
    ).body.media_id as string

  it('in the Android icons and picture, the HarmonyOS icon and a vendor channel: delivered as given', async () => {
    const { app } = await createTestApp()
    const [big, large, small] = [await image(app, 1), await image(app, 2), await image(app, 3)]
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({
        notification: {
          android: { alert: 'sale', style: 3, big_pic_path: big, large_icon: large, small_icon_uri: small },
          hmos: { alert: 'sale', category: 'MARKETING', large_icon: large },
        },
        options: { third_party_channel: { huawei: { large_icon: large, small_icon_uri: small } } },
      }),
    )
    expect(res.status, res.raw).toBe(200)
    const [got] = await received(app, `registration_id=${ANDROID_1}`)
    expect(got!.notification).toMatchObject({ large_icon: large, big_pic_path: big })
  })

  it.each([
    [
      'a media_id the app does not have',
      (_ids: string[]) => ({
        android: { alert: 'a', large_icon: 'jgmedia-2-11111111-1111-1111-1111-111111111111' },
      }),
      'media_id jgmedia-2-11111111-1111-1111-1111-111111111111 does not exist',
    ],
    [
      'a large icon as the big picture',
      (ids: string[]) => ({ android: { alert: 'a', big_pic_path: ids[0] } }),
      'notification.android.big_pic_path takes an image of image_type 1, not 2',
    ],
  ])('%s: 400 1003', async (_what, notification, message) => {
    const { app } = await createTestApp()
    const ids = [await image(app, 2)]
    for (const path of ['/v3/push', '/v3/push/validate']) {
      const res = await call(app, 'POST', path, pushBody({ notification: notification(ids) }))
      expect([res.status, res.body], path).toEqual([400, { error: { code: 1003, message } }])
    }
  })

  it('is gone 30 days after its last change: a push naming it is refused, the control plane forgets it', async () => {
    const { app, clock } = await createTestApp()
    const id = await image(app, 2)
    clock.advance(30 * 86_400_000 + 1)
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ notification: { android: { alert: 'a', large_icon: id } } }),
    )
    expect(res.body.error).toEqual({ code: 1003, message: `media_id ${id} does not exist` })
    expect((await call(app, 'GET', '/_sandbox/push/images')).body.images).toEqual([])
    expect((await call(app, 'GET', `/_sandbox/push/images/${id}`)).body.error.code).toBe(90045)
  })

  it("another app's media_id is unknown to this one", async () => {
    const { app } = await createTestApp()
    const id = await image(app, 2)
    const other = {
      authorization: `Basic ${Buffer.from('imagesother0000000000001:imagesothersecret0000001').toString('base64')}`,
    }
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ notification: { android: { alert: 'a', large_icon: id } } }),
      other,
    )
    expect(res.body.error.code).toBe(1003)
  })
})

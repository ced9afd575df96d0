import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import {
  BMP,
  dotnetForm,
  GIF,
  JPEG,
  javaForm,
  PNG,
  phpForm,
  postForm,
  pythonForm,
  storedSign,
} from '../fixtures/sign-forms.js'
import { call, createTestApp, defaultAuth } from '../helpers.js'

// Each official client's form, as it puts it on the wire, creates a signature with HTTP 200
// exactly (the Java client fails on anything else) and the fields it meant.

describe('POST /v1/sign from every official client', () => {
  const clients = [
    [
      'Java',
      '/v1/sign',
      'Java签名',
      javaForm({ sign: 'Java签名', type: '3', images: [{ name: 'a.png', bytes: PNG }] }),
    ],
    [
      'PHP',
      '/v1/sign/',
      'PHP签名',
      phpForm({ sign: 'PHP签名', images: [{ name: 'licence.jpg', bytes: JPEG }] }),
    ],
    [
      'Python',
      '/v1/sign',
      'Py签名',
      pythonForm({ sign: 'Py签名', type: '1', remark: '登录', images: [{ name: 'g.gif', bytes: GIF }] }),
    ],
    [
      '.NET',
      '/v1/sign',
      'NET签名',
      dotnetForm({ sign: 'NET签名', type: '7', images: [{ name: 'b', bytes: BMP }] }),
    ],
  ] as const

  it.each(clients)('%s', async (_client, url, sign, form) => {
    const { app } = await createTestApp()
    const res = await postForm(app, url, form)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ sign_id: 10001 })
    const got = await call(app, 'GET', '/v1/sign/10001')
    expect(got.body).toEqual({
      sign_id: 10001,
      sign,
      status: 0,
      is_default: 0,
      use_status: 0,
    })
    expect(storedSign(app, 10001)).toMatchObject({ images: 1 })
  })

  it('reads the text parts each client meant', async () => {
    const { app } = await createTestApp({ reviewDelayMs: 0 })
    await postForm(app, '/v1/sign', pythonForm({ sign: 'Py签名', type: '1', remark: '登录' }))
    expect(storedSign(app, 10001)).toMatchObject({
      sign: 'Py签名',
      type: 1,
      remark: '登录',
      images: 0,
    })
    // PHP's empty type/remark/image0 parts mean "not given".
    await postForm(app, '/v1/sign/', phpForm({ sign: 'PHP签名' }))
    expect(storedSign(app, 10002)).toMatchObject({
      sign: 'PHP签名',
      type: null,
      remark: '',
      images: 0,
    })
    await postForm(app, '/v1/sign', dotnetForm({ sign: 'NET签名', type: '2', remark: 'r' }))
    expect(storedSign(app, 10003)).toMatchObject({ sign: 'NET签名', type: 2, remark: 'r' })
  })

  it('takes several Java `images` parts and .NET image0..image3', async () => {
    const { app } = await createTestApp({ reviewDelayMs: 0 })
    const four = [PNG, JPEG, GIF, BMP].map((bytes, i) => ({ name: `f${i}`, bytes }))
    expect(
      (await postForm(app, '/v1/sign', javaForm({ sign: '四张图片', type: '1', images: four }))).status,
    ).toBe(200)
    expect(storedSign(app, 10001)?.images).toBe(4)
    expect((await postForm(app, '/v1/sign', dotnetForm({ sign: '点网', images: four }))).status).toBe(200)
    expect(storedSign(app, 10002)?.images).toBe(4)
  })

  it('modifies with POST /v1/sign/:sign_id in the same forms', async () => {
    const { app, clock } = await createTestApp()
    await postForm(app, '/v1/sign', pythonForm({ sign: '旧名字' }))
    await call(app, 'POST', '/_sandbox/sms/signs/10001/review', { status: 2, refuse_reason: 'no licence' })
    const res = await postForm(
      app,
      '/v1/sign/10001',
      javaForm({ sign: '新名字', type: '1', images: [{ name: 'l.png', bytes: PNG }] }),
    )
    expect(res).toMatchObject({ status: 200, body: { sign_id: 10001 } })
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({ sign: '新名字', status: 0 })
    clock.advance(60_000)
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({ sign: '新名字', status: 1 })
    // PHP leaves out what it does not change: the name stays.
    await call(app, 'POST', '/_sandbox/sms/signs/10001/review', { status: 2 })
    expect((await postForm(app, '/v1/sign/10001', phpForm({ remark: 'again' }))).status).toBe(200)
    expect(storedSign(app, 10001)).toMatchObject({
      sign: '新名字',
      remark: 'again',
    })
  })

  it('over a real socket, the Java form as the JDK sends it', async () => {
    const { app } = await createTestApp()
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    const form = javaForm({ sign: '套接字', type: '1', images: [{ name: 'a.png', bytes: PNG }] })
    const res = await request(`${url}/v1/sign`, {
      method: 'POST',
      headers: { authorization: defaultAuth, 'content-type': form.contentType, ...form.extraHeaders },
      body: form.body,
    })
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toEqual({ sign_id: 10001 })
  })
})

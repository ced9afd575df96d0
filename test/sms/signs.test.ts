import { describe, expect, it } from 'vitest'
import {
  GIF,
  PNG,
  pendingSign,
  postForm,
  pythonForm,
  type RawForm,
  type SignFields,
  storedSign,
} from '../fixtures/sign-forms.js'
import { call, createTestApp } from '../helpers.js'

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})
const form = (f: SignFields) => pythonForm(f)
const image = (bytes: Buffer) => ({ sign: '图片测试', images: [{ name: 'x.png', bytes }] })
const TWO_MIB = 2 * 1024 * 1024
const bigPng = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 1)])

describe('POST /v1/sign refuses what the console would', () => {
  const cases: Array<[string, SignFields, ReturnType<typeof err>]> = [
    ['no sign', { type: '1' }, err(403, 50104, 'invalid signature')],
    ['one character', { sign: '极' }, err(403, 50104, 'invalid signature')],
    ['nine characters', { sign: '一二三四五六七八九' }, err(403, 50104, 'invalid signature')],
    ['signature marks', { sign: '【极光】' }, err(403, 50104, 'invalid signature')],
    ['square brackets', { sign: '[极光]' }, err(403, 50104, 'invalid signature')],
    ['parentheses', { sign: '极光(测试)' }, err(403, 50104, 'invalid signature')],
    ['a space', { sign: '极光 测试' }, err(403, 50104, 'invalid signature')],
    ['type 0', { sign: '极光', type: '0' }, err(403, 50104, 'invalid signature')],
    ['type 8', { sign: '极光', type: '8' }, err(403, 50104, 'invalid signature')],
    ['type text', { sign: '极光', type: 'company' }, err(403, 50104, 'invalid signature')],
    ['remark over 100', { sign: '极光', remark: 'r'.repeat(101) }, err(403, 50104, 'invalid signature')],
    ['a text file as image', image(Buffer.from('hello, not an image')), err(403, 50101, 'invalid image')],
    ['an empty image', image(Buffer.alloc(0)), err(403, 50101, 'invalid image')],
    ['an image over 2 MiB', image(bigPng(TWO_MIB + 1)), err(403, 50101, 'invalid image')],
  ]
  it.each(cases)('%s', async (_name, fields, expected) => {
    const { app } = await createTestApp()
    const res = await postForm(app, '/v1/sign', form(fields))
    expect({ status: res.status, body: res.body }).toEqual(expected)
    expect(pendingSign(app)).toBeUndefined()
  })

  it('accepts the limits themselves: 2 and 8 characters, remark 100, image of 2 MiB', async () => {
    const { app } = await createTestApp({ reviewDelayMs: 0 })
    for (const f of [
      { sign: 'AB' },
      { sign: '极光Push12', remark: 'r'.repeat(100), type: '7' },
      { sign: '大图', images: [{ name: 'big.png', bytes: bigPng(TWO_MIB) }] },
    ]) {
      expect((await postForm(app, '/v1/sign', form(f))).status).toBe(200)
    }
  })

  it('refuses a text part under an image name with content (50101)', async () => {
    const { app } = await createTestApp()
    const b = '----x'
    const body = `--${b}\r\nContent-Disposition: form-data; name="sign"\r\n\r\n极光\r\n--${b}\r\nContent-Disposition: form-data; name="image0"\r\n\r\nnot a file\r\n--${b}--\r\n`
    const res = await postForm(app, '/v1/sign', {
      contentType: `multipart/form-data; boundary=${b}`,
      body: Buffer.from(body),
    })
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50101, 'invalid image'))
  })

  const badBodies: Array<[string, RawForm, ReturnType<typeof err>]> = [
    [
      'JSON',
      { contentType: 'application/json', body: Buffer.from('{"sign":"极光"}') },
      err(415, 50017, 'media not supported'),
    ],
    [
      'no Content-Type',
      { contentType: '', body: Buffer.from('sign=abc') },
      err(415, 50017, 'media not supported'),
    ],
    [
      'urlencoded',
      { contentType: 'application/x-www-form-urlencoded', body: Buffer.from('sign=ab') },
      err(415, 50017, 'media not supported'),
    ],
    [
      'an empty body',
      { contentType: 'multipart/form-data; boundary=x', body: Buffer.alloc(0) },
      err(400, 50003, 'missing body'),
    ],
    [
      'no boundary',
      { contentType: 'multipart/form-data', body: Buffer.from('--x\r\n') },
      err(403, 50007, 'invalid body'),
    ],
    [
      'a cut-off form',
      {
        contentType: 'multipart/form-data; boundary=x',
        body: Buffer.from('--x\r\nContent-Disposition: form-data; name="sign"\r\n\r\nab'),
      },
      err(403, 50007, 'invalid body'),
    ],
  ]
  it.each(badBodies)('answers %s in the vendor envelope', async (_name, raw, expected) => {
    const { app } = await createTestApp()
    const res = await postForm(app, '/v1/sign', raw)
    expect({ status: res.status, body: res.body }).toEqual(expected)
  })

  it('answers a body over 10 MiB in the vendor envelope', async () => {
    const { app } = await createTestApp()
    const huge = image(bigPng(10 * 1024 * 1024 + 1))
    const res = await postForm(app, '/v1/sign', form(huge))
    expect(res.status).toBe(403) // sms-service.md §7: 50007 is HTTP 403
    expect(res.body).toEqual({ error: { code: 50007, message: 'invalid body' } })
  })

  it('allows one signature under review at a time (50103)', async () => {
    const { app, clock } = await createTestApp()
    expect((await postForm(app, '/v1/sign', form({ sign: '第一个' }))).status).toBe(200)
    const second = await postForm(app, '/v1/sign', form({ sign: '第二个' }))
    expect({ status: second.status, body: second.body }).toEqual(
      err(403, 50103, 'other signatures in the audit'),
    )
    const modify = await postForm(app, '/v1/sign/1', form({ sign: '改默认' }))
    expect({ status: modify.status, body: modify.body }).toEqual(
      err(403, 50103, 'other signatures in the audit'),
    )
    clock.advance(60_000)
    expect(
      await postForm(app, '/v1/sign', form({ sign: '第二个', images: [{ name: 'g', bytes: GIF }] })),
    ).toMatchObject({
      status: 200,
      body: { sign_id: 10002 },
    })
  })

  it('modifying the signature under review replaces it and restarts its review; 50103 is for another', async () => {
    const { app, clock } = await createTestApp()
    const created = await postForm(app, '/v1/sign', form({ sign: '第一版', remark: 'v1' }))
    expect(created).toMatchObject({ status: 200, body: { sign_id: 10001 } })
    clock.advance(50_000)
    const modified = await postForm(app, '/v1/sign/10001', form({ sign: '第二版' }))
    expect({ status: modified.status, body: modified.body }).toEqual({
      status: 200,
      body: { sign_id: 10001 },
    })
    expect(storedSign(app, 10001)).toMatchObject({ sign: '第二版', remark: 'v1', status: 0 })
    // The review starts again from the modification: 60 s from there, not from the creation.
    clock.advance(59_999)
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({ sign: '第二版', status: 0 })
    clock.advance(1)
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({ sign: '第二版', status: 1 })

    // Another signature pending still stops a modification (and a creation).
    expect((await postForm(app, '/v1/sign', form({ sign: '第三个' }))).status).toBe(200)
    const other = await postForm(app, '/v1/sign/10001', form({ sign: '第四版' }))
    expect({ status: other.status, body: other.body }).toEqual(
      err(403, 50103, 'other signatures in the audit'),
    )
    expect(storedSign(app, 10001)).toMatchObject({ sign: '第二版', status: 1 })
  })
})

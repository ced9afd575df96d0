import { describe, expect, it } from 'vitest'
import {
  dotnetForm,
  JPEG,
  javaForm,
  PNG,
  phpForm,
  postForm,
  pythonForm,
  unclosed,
} from '../fixtures/sign-forms.js'
import { call, createTestApp } from '../helpers.js'

// A complete request whose multipart form lacks its closing boundary. busboy destroys the open
// file stream with "Unexpected end of file"; with nobody listening, that 'error' was thrown and
// took the whole process down. It is 403 50007 "invalid body" (sms-service.md §7), and nothing
// is created.

const image = [{ name: 'a.png', bytes: PNG }]
const forms = [
  ['Java (ends inside its file part)', javaForm({ sign: '截断签名', type: '1', images: image })],
  ['.NET (ends inside its file part)', dotnetForm({ sign: '截断签名', images: image })],
  ['PHP (ends inside a text part)', phpForm({ sign: '截断签名', images: [{ name: 'l.jpg', bytes: JPEG }] })],
  ['Python (ends inside a text part)', pythonForm({ sign: '截断签名', type: '1', images: image })],
] as const

describe('a multipart form without its closing boundary', () => {
  it.each(forms)('%s: POST /v1/sign answers 403 50007 and creates nothing', async (_name, form) => {
    const { app } = await createTestApp()
    const res = await postForm(app, '/v1/sign', unclosed(form))
    expect(res).toMatchObject({ status: 403, body: { error: { code: 50007, message: 'invalid body' } } })
    expect((await call(app, 'GET', '/v1/sign/10001')).body.error.code).toBe(50102)
    // The same form, closed, still goes through: only the missing end was wrong.
    expect((await postForm(app, '/v1/sign', form)).status).toBe(200)
  })

  it.each(forms)('%s: POST /v1/sign/{sign_id} answers 403 50007 and changes nothing', async (_n, form) => {
    const { app } = await createTestApp({ reviewDelayMs: 0 })
    await postForm(app, '/v1/sign', pythonForm({ sign: '原来名字' }))
    const res = await postForm(app, '/v1/sign/10001', unclosed(form))
    expect(res).toMatchObject({ status: 403, body: { error: { code: 50007 } } })
    expect((await call(app, 'GET', '/v1/sign/10001')).body.sign).toBe('原来名字')
  })
})

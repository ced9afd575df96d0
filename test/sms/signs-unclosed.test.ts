import { describe, expect, it } from 'vitest'
import {
  dotnetForm,
  javaForm,
  PNG,
  phpForm,
  postForm,
  pythonForm,
  type RawForm,
} from '../fixtures/sign-forms.js'
import { call, createTestApp } from '../helpers.js'
import { expectNothingUncaught } from '../uncaught.js'

// A complete request (an honest Content-Length) whose multipart form ends inside its file part:
// no closing boundary, as a Go client that never calls multipart.Writer.Close sends it (Java and
// .NET write the file last, so their form simply lacks its end; PHP and Python are cut right after
// the image's bytes). busboy destroys the open file stream with "Unexpected end of file"; with
// nobody listening, that 'error' was thrown and took the whole process down. It is 403 50007
// "invalid body" (sms-service.md §7), and nothing is created or changed.

const image = [{ name: 'a.png', bytes: PNG }]
/** The form up to the end of its image's bytes. */
const endsInFile = (form: RawForm): RawForm => {
  const end = form.body.indexOf(PNG) + PNG.length
  return { ...form, body: form.body.subarray(0, end) }
}
const forms = [
  ['Java', javaForm({ sign: '截断签名', type: '1', images: image })],
  ['.NET', dotnetForm({ sign: '截断签名', images: image })],
  ['PHP', phpForm({ sign: '截断签名', images: image })],
  ['Python', pythonForm({ sign: '截断签名', type: '1', images: image })],
] as const

describe('a multipart form without its closing boundary', () => {
  it.each(forms)(
    '%s form ending inside its file part: POST /v1/sign answers 403 50007 and creates nothing',
    async (_name, form) => {
      const { app } = await createTestApp()
      const res = await expectNothingUncaught(() => postForm(app, '/v1/sign', endsInFile(form)))
      expect(res).toMatchObject({ status: 403, body: { error: { code: 50007, message: 'invalid body' } } })
      expect((await call(app, 'GET', '/v1/sign/10001')).body.error.code).toBe(50102)
      // The same form, closed, still goes through: only the missing end was wrong.
      expect((await postForm(app, '/v1/sign', form)).status).toBe(200)
    },
  )

  it.each(forms)(
    '%s form ending inside its file part: POST /v1/sign/{sign_id} answers 403 50007 and changes nothing',
    async (_n, form) => {
      const { app } = await createTestApp({ reviewDelayMs: 0 })
      await postForm(app, '/v1/sign', pythonForm({ sign: '原来名字' }))
      const res = await expectNothingUncaught(() => postForm(app, '/v1/sign/10001', endsInFile(form)))
      expect(res).toMatchObject({ status: 403, body: { error: { code: 50007 } } })
      expect((await call(app, 'GET', '/v1/sign/10001')).body.sign).toBe('原来名字')
    },
  )
})

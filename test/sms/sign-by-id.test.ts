import { describe, expect, it } from 'vitest'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})
const form = pythonForm

describe('GET, POST and DELETE /v1/sign/:sign_id', () => {
  it('reads the default signature as default and in use', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v1/sign/1')
    expect(res.body).toEqual({ sign_id: 1, sign: '极光沙箱', status: 1, is_default: 1, use_status: 1 })
  })

  it('marks a signature in use once a message went out under it', async () => {
    const { app, clock } = await createTestApp()
    await postForm(app, '/v1/sign', form({ sign: '第二签名' }))
    clock.advance(60_000)
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({
      status: 1,
      is_default: 0,
      use_status: 0,
    })
    const sent = await call(app, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      sign_id: 10001,
      temp_para: { order: 'A1', days: 2 },
    })
    expect(sent.status).toBe(200)
    expect((await call(app, 'GET', '/v1/sign/10001')).body).toMatchObject({ use_status: 1 })
  })

  it('deletes a signature with 200 and an empty body; never the default (50105)', async () => {
    const { app } = await createTestApp()
    await postForm(app, '/v1/sign', form({ sign: '临时' }))
    const res = await call(app, 'DELETE', '/v1/sign/10001')
    expect(res.status).toBe(200)
    expect(res.raw).toBe('')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const gone = await call(app, 'GET', '/v1/sign/10001')
    expect({ status: gone.status, body: gone.body }).toEqual(err(403, 50102, 'invalid sign id'))
    const dflt = await call(app, 'DELETE', '/v1/sign/1')
    expect({ status: dflt.status, body: dflt.body }).toEqual(
      err(403, 50105, 'default signature cannot be deleted'),
    )
  })

  it.each([
    ['GET', '/v1/sign/99999'],
    ['DELETE', '/v1/sign/99999'],
    ['GET', '/v1/sign/abc'],
    ['POST', '/v1/sign/99999'],
  ] as const)('%s %s is 50102', async (method, url) => {
    const { app } = await createTestApp()
    const res =
      method === 'POST' ? await postForm(app, url, form({ sign: '极光' })) : await call(app, method, url)
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50102, 'invalid sign id'))
  })

  it("does not let one app see or touch another's signature", async () => {
    const { app } = await createTestApp()
    await postForm(app, '/v1/sign', form({ sign: '我的' }))
    const other = basic(newKey('a'), newKey('s'))
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(app, method, '/v1/sign/10001', undefined, { authorization: other })
      expect({ status: res.status, body: res.body }).toEqual(err(403, 50102, 'invalid sign id'))
    }
    const modify = await postForm(app, '/v1/sign/10001', form({ sign: '抢走' }), other)
    expect({ status: modify.status, body: modify.body }).toEqual(err(403, 50102, 'invalid sign id'))
    expect((await call(app, 'GET', '/v1/sign/10001')).body.sign).toBe('我的')
  })

  it('answers PUT on a signature with 405 50018', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', '/v1/sign/1', {})
    expect({ status: res.status, body: res.body }).toEqual(err(405, 50018, 'request method not support'))
  })
})

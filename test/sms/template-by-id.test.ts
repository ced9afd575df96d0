import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})
const notice = { template: '您的订单{{order_no}}已发货。', type: 2, remark: 'shipping' }

describe('GET and DELETE /v1/templates/:temp_id', () => {
  it('reads the seeded templates', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v1/templates/5')
    expect(res.body).toEqual({
      temp_id: 5,
      template: '恭喜您中奖了，请点击领取{{prize}}。',
      type: 3,
      ttl: 0,
      remark: 'lottery',
      status: 2,
    })
  })

  it('deletes with 200 and an empty JSON body', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'DELETE', '/v1/templates/2')
    expect(res.status).toBe(200)
    expect(res.raw).toBe('')
    expect(res.headers['content-length']).toBe('0')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const gone = await call(app, 'GET', '/v1/templates/2')
    expect({ status: gone.status, body: gone.body }).toEqual(err(403, 50013, 'invalid temp_id'))
  })

  it.each([
    ['GET', '/v1/templates/99999'],
    ['DELETE', '/v1/templates/99999'],
    ['GET', '/v1/templates/abc'],
    ['GET', '/v1/templates/0'],
    ['PUT', '/v1/templates/99999'],
  ] as const)('%s %s of an unknown id is 50013', async (method, url) => {
    const { app } = await createTestApp()
    const res = await call(app, method, url, method === 'PUT' ? notice : undefined)
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50013, 'invalid temp_id'))
  })

  it("does not show one app's template to another", async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/v1/templates', notice)
    const other = { authorization: basic(newKey('a'), newKey('s')) }
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(app, method, '/v1/templates/10001', undefined, other)
      expect({ status: res.status, body: res.body }).toEqual(err(403, 50013, 'invalid temp_id'))
    }
    expect((await call(app, 'GET', '/v1/templates/10001')).status).toBe(200)
  })
})

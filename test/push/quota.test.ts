import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSeedFile } from '../../src/seed/seed-file.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { rate } from './helpers.js'

// GET /v3/push/quota (jpush-api.md §5.14): the flat code/message/data shape.

const UNLIMITED = { system: { total: -1, used: -1 }, operation: { total: -1, used: -1 } }
const APP = { appKey: 'quotaapp0000000000000001', secret: 'quotasecret0000000000001' }

function seed(settings: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'quota-')), 'seed.json')
  writeFileSync(
    file,
    JSON.stringify({ apps: [{ app_key: APP.appKey, master_secret: APP.secret, settings }] }),
  )
  return file
}

describe('vendor quota', () => {
  it('is unlimited (-1) for every vendor by default, in the push rate window', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v3/push/quota')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      code: 0,
      message: 'success',
      data: { xiaomi_quota: UNLIMITED, oppo_quota: UNLIMITED, vivo_quota: UNLIMITED },
    })
    expect(Object.keys(res.body)).toEqual(['code', 'message', 'data'])
    expect(rate(res.headers)).toEqual(['600', '599', '60'])
  })

  it("answers the app's settings.quota, -1 for what it leaves out", async () => {
    const quota = {
      xiaomi_quota: { system: { total: 5000, used: 120 } },
      vivo_quota: { operation: { total: 10, used: 10 } },
    }
    const { app } = await createTestApp({ seedFile: seed({ quota }) })
    const res = await call(app, 'GET', '/v3/push/quota', undefined, {
      authorization: basic(APP.appKey, APP.secret),
    })
    expect(res.body.data).toEqual({
      xiaomi_quota: { system: { total: 5000, used: 120 }, operation: { total: -1, used: -1 } },
      oppo_quota: UNLIMITED,
      vivo_quota: { system: { total: -1, used: -1 }, operation: { total: 10, used: 10 } },
    })
  })

  it('a misspelt quota in the seed file stops the start', () => {
    expect(() => readSeedFile(seed({ quota: { huawei_quota: {} } }))).toThrow(/settings\.quota/)
    expect(() => readSeedFile(seed({ quota: { oppo_quota: { system: { total: -2, used: 0 } } } }))).toThrow(
      /settings\.quota\.oppo_quota\.system\.total/,
    )
  })

  it('errors are the nested envelope: 401 1004, 405 1001', async () => {
    const { app } = await createTestApp()
    const wrong = await call(app, 'GET', '/v3/push/quota', undefined, {
      authorization: basic('7d431e42dfa6a6d693ac2d04', newKey()),
    })
    expect([wrong.status, wrong.body]).toEqual([401, { error: { code: 1004, message: 'Authen failed' } }])
    const post = await call(app, 'POST', '/v3/push/quota', {})
    expect([post.status, post.body.error.code]).toEqual([405, 1001])
  })
})

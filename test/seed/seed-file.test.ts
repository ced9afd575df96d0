import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSeedFile } from '../../src/seed/seed-file.js'
import { basic, call, createTestApp } from '../helpers.js'

function seedFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'seed-')), name)
  writeFileSync(path, text)
  return path
}

const yaml = `
sensitive_words: [forbidden]
apps:
  - app_key: yamlapp00000000000000001
    master_secret: yamlsecret00000000000001
    balances: { industry: 3 }
    settings:
      rate_limits: { push: 5 }
      segments: { seg1: [1a0018970a8b0fd6c0e] }
`

describe('SANDBOX_CONFIG seed file', () => {
  it('reads YAML and applies it: the app exists with its balances and limits', async () => {
    const { app } = await createTestApp({ seedFile: seedFile('seed.yaml', yaml) })
    const auth = { authorization: basic('yamlapp00000000000000001', 'yamlsecret00000000000001') }
    const balance = await call(app, 'GET', '/v1/accounts/app', undefined, auth)
    expect(balance.body.app_industry).toBe(3)
    const push = await call(app, 'GET', '/v3/push/cid', undefined, auth)
    expect(push.headers['x-rate-limit-limit']).toBe('5')
    const sent = await call(
      app,
      'POST',
      '/v1/messages',
      {
        mobile: '13800138000',
        temp_id: 2,
        temp_para: { order: 'forbidden', days: 1 },
      },
      auth,
    )
    expect(sent.body.error.code).toBe(50037)
  })

  it('names the offending key of a bad file instead of ignoring it', () => {
    const bad = yaml.replace('rate_limits', 'rate_limit')
    expect(() => readSeedFile(seedFile('bad.yml', bad))).toThrow(/apps\.0\.settings.*rate_limit/s)
    expect(() => readSeedFile(seedFile('bad.json', '{"apps":[{"app_key":"short"}]}'))).toThrow(
      /apps\.0\.app_key: must be 24 letters or digits/,
    )
  })
})

describe('seeded ids', () => {
  // Ids the app later allocates come from global sequences (temp_id and sign_id start after
  // 10000): a seeded id ahead of them must not be handed out again.
  it('a new template or signature never takes an id the seed file gave', async () => {
    const seed = {
      apps: [
        {
          app_key: 'seedids00000000000000001',
          master_secret: 'seedids00000000000000001',
          templates: [{ temp_id: 10001, template: 'Order {{order}} shipped', type: 2 }],
          signs: [{ sign_id: 10001, sign: 'Seeded', is_default: true }],
        },
      ],
    }
    const { app } = await createTestApp({ seedFile: seedFile('seed.json', JSON.stringify(seed)) })
    const auth = { authorization: basic('seedids00000000000000001', 'seedids00000000000000001') }
    const template = await call(app, 'POST', '/v1/templates', { template: 'Hello {{name}}', type: 2 }, auth)
    expect(template.status, template.raw).toBe(200)
    expect(template.body.temp_id).toBeGreaterThan(10001)
    const form = `--b\r\nContent-Disposition: form-data; name="sign"\r\n\r\nAnother\r\n--b--\r\n`
    const sign = await call(app, 'POST', '/v1/sign', form, {
      ...auth,
      'content-type': 'multipart/form-data; boundary=b',
    })
    expect(sign.status, sign.raw).toBe(200)
    expect(sign.body.sign_id).toBeGreaterThan(10001)
  })

  it('refuses a seeded id the clients cannot hold (over 2^31 - 1)', () => {
    const seed = { apps: [{ app_key: 'a'.repeat(24), master_secret: 'a'.repeat(24), templates: [] }] }
    seed.apps[0]!.templates = [{ temp_id: 2 ** 31, template: 'x', type: 2 }] as never
    expect(() => readSeedFile(seedFile('seed.json', JSON.stringify(seed)))).toThrow(/temp_id/)
  })
})

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { mobiles, SCALE } from './http.js'

// Concurrent requests at every check-then-write edge: the counts are exact, balances never go
// below zero. Requests are fired together, so the group commit sees them in one batch.

const N = 50 * SCALE

/** An app whose every bucket (and its developer's) is empty except `industry`. */
async function poorApp(industry: number) {
  const dir = mkdtempSync(join(tmpdir(), 'jiguang-races-'))
  const devKey = newKey('dev')
  const app = { key: newKey('poor'), secret: newKey('s') }
  const zero = { balance: 0, voice: 0, industry: 0, market: 0 }
  const seed = {
    developers: [{ dev_key: devKey, dev_secret: newKey('ds'), balances: zero }],
    apps: [{ app_key: app.key, master_secret: app.secret, dev_key: devKey, balances: { ...zero, industry } }],
  }
  const seedFile = join(dir, 'seed.json')
  writeFileSync(seedFile, JSON.stringify(seed))
  const { app: sandbox } = await createTestApp({ seedFile })
  return { sandbox, auth: { authorization: basic(app.key, app.secret) } }
}

const codes = (answers: Array<Awaited<ReturnType<typeof call>>>) => {
  const out: Record<string, number> = {}
  for (const a of answers) {
    const key = a.status === 200 ? 'ok' : String(a.body?.error?.code)
    out[key] = (out[key] ?? 0) + 1
  }
  return out
}

describe('races', () => {
  it(`${N} concurrent sends against a balance of 7: exactly 7 go out`, async () => {
    const { sandbox, auth } = await poorApp(7)
    const next = mobiles()
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        call(
          sandbox,
          'POST',
          '/v1/messages',
          { mobile: next(), temp_id: 2, temp_para: { order: 'A', days: '1' } },
          auth,
        ),
      ),
    )
    expect(codes(answers)).toEqual({ ok: 7, '50014': N - 7 })
    const account = await call(sandbox, 'GET', '/v1/accounts/app', undefined, auth)
    expect(account.body).toMatchObject({ app_industry: 0, app_balance: 0 })
    const listed = await call(sandbox, 'GET', '/_sandbox/sms/messages?limit=1000', undefined, auth)
    expect(listed.body.messages).toHaveLength(7)
  })

  it('concurrent batches against a small balance: recipients charged exactly, never below zero', async () => {
    const { sandbox, auth } = await poorApp(25)
    const next = mobiles()
    const batch = () => ({
      temp_id: 2,
      recipients: Array.from({ length: 10 }, () => ({
        mobile: next(),
        temp_para: { order: 'B', days: '2' },
      })),
    })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(sandbox, 'POST', '/v1/messages/batch', batch(), auth)),
    )
    const success = answers.reduce((n, a) => n + a.body.success_count, 0)
    const failures = answers.flatMap(a => a.body.failure_recipients)
    expect(success).toBe(25)
    expect(failures).toHaveLength(25)
    expect(new Set(failures.map((f: { error_code: string }) => f.error_code))).toEqual(new Set(['50014']))
    const account = await call(sandbox, 'GET', '/v1/accounts/app', undefined, auth)
    expect(account.body.app_industry).toBe(0)
  })

  it(`${N} concurrent validations of one code: exactly one is valid`, async () => {
    const { app } = await createTestApp()
    const sent = await call(app, 'POST', '/v1/codes', { mobile: '13900000001', temp_id: 1 })
    const latest = await call(app, 'GET', '/_sandbox/sms/codes/latest?mobile=13900000001')
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        call(app, 'POST', `/v1/codes/${sent.body.msg_id}/valid`, { code: latest.body.code }),
      ),
    )
    expect(codes(answers)).toEqual({ ok: 1, '50012': N - 1 })
    expect(answers.filter(a => a.body.is_valid === true)).toHaveLength(1)
  })

  it.each([
    ['notification, same content (3 per 10 min)', 2, { order: 'C', days: '1' }, 3],
    ['marketing (3 per 10 min)', 3, { name: 'Li' }, 3],
  ])('%s: concurrent sends to one mobile at the edge', async (_name, tempId, para, limit) => {
    const { app } = await createTestApp()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(app, 'POST', '/v1/messages', { mobile: '13900000002', temp_id: tempId, temp_para: para }),
      ),
    )
    expect(codes(answers)).toEqual({ ok: limit, '50009': 20 - limit })
  })

  it('voice codes: of concurrent requests for one mobile, one goes out (20 s apart)', async () => {
    const { app } = await createTestApp()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(app, 'POST', '/v1/voice_codes', { mobile: '13900000003' })),
    )
    expect(codes(answers)).toEqual({ ok: 1, '50009': 19 })
  })

  it('text codes: 210 concurrent requests for one mobile, exactly 200 in 24 hours', async () => {
    const { app } = await createTestApp()
    const answers = await Promise.all(
      Array.from({ length: 210 }, () =>
        call(app, 'POST', '/v1/codes', { mobile: '13900000004', temp_id: 1 }),
      ),
    )
    expect(codes(answers)).toEqual({ ok: 200, '50009': 10 })
    const account = await call(app, 'GET', '/v1/accounts/app')
    expect(account.body.app_industry).toBe(10_000 - 200)
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/engine/db.js'
import { cachedStatements, createAppMemo } from '../../src/store/engine/row-cache.js'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'

// The store keeps apps, developers, templates, signatures and the next review due in memory
// (src/store/engine/row-cache.ts). Every change made through the API, the sandbox or the clock must be
// seen by the very next request.

const MOBILE = '13800138000'
const lastContent = async (app: Awaited<ReturnType<typeof createTestApp>>['app']) =>
  (await call(app, 'GET', `/_sandbox/sms/messages?mobile=${MOBILE}&limit=1`)).body.messages[0].content
const notify = (app: Awaited<ReturnType<typeof createTestApp>>['app'], extra: Record<string, unknown> = {}) =>
  call(app, 'POST', '/v1/messages', {
    mobile: MOBILE,
    temp_id: 2,
    temp_para: { order: 'A1', days: '2' },
    ...extra,
  })

describe('cached rows', () => {
  it('a template modified through the API is seen by the next send, then its approval by the sandbox', async () => {
    const { app } = await createTestApp()
    expect((await notify(app)).status).toBe(200)
    await call(app, 'POST', '/_sandbox/sms/templates/2/review', { status: 2, refuse_reason: '改' })
    expect((await notify(app)).body).toEqual({ error: { code: 50021, message: 'template not pass' } })
    const put = await call(app, 'PUT', '/v1/templates/2', {
      template: '订单{{order}}已改，{{days}}天',
      type: 2,
    })
    expect(put.status).toBe(200)
    const auditing = await notify(app)
    expect(auditing.body).toEqual({ error: { code: 50020, message: 'template auditing' } })
    expect((await call(app, 'POST', '/_sandbox/sms/templates/2/review', { status: 1 })).status).toBe(200)
    expect((await notify(app)).status).toBe(200)
    expect(await lastContent(app)).toContain('订单A1已改，2天')
  })

  it('a review that falls due with the clock is settled by the next send (no other request between)', async () => {
    const { app, clock } = await createTestApp({ reviewDelayMs: 60_000 })
    await notify(app) // the "no review due" answer is now remembered
    await call(app, 'POST', '/_sandbox/sms/templates/2/review', { status: 2, refuse_reason: '改' })
    await call(app, 'PUT', '/v1/templates/2', { template: '新{{order}}，{{days}}', type: 2 })
    expect((await notify(app)).body.error.code).toBe(50020)
    clock.advance(59_000)
    expect((await notify(app)).body.error.code).toBe(50020)
    clock.advance(1_000)
    expect((await notify(app)).status).toBe(200)
    expect(await lastContent(app)).toContain('新A1，2')
  })

  it('a deleted template is gone for the next send', async () => {
    const { app } = await createTestApp()
    expect((await notify(app)).status).toBe(200)
    expect((await call(app, 'DELETE', '/v1/templates/2')).status).toBe(200)
    expect((await notify(app)).body).toEqual({ error: { code: 50013, message: 'invalid temp_id' } })
  })

  it('a default signature modified, then approved in the sandbox, is seen by the next send', async () => {
    const { app } = await createTestApp()
    expect((await notify(app)).status).toBe(200)
    const changed = await postForm(app, '/v1/sign/1', pythonForm({ sign: '新签名', type: '1' }))
    expect(changed.status).toBe(200)
    expect((await notify(app)).body.error.code).toBe(50046)
    expect((await call(app, 'POST', '/_sandbox/sms/signs/1/review', { status: 1 })).status).toBe(200)
    expect((await notify(app)).status).toBe(200)
    expect(await lastContent(app)).toMatch(/^【新签名】/)
  })

  it('reads balances fresh: each send shows in the accounts at once', async () => {
    const { app } = await createTestApp()
    const before = (await call(app, 'GET', '/v1/accounts/app')).body.app_industry
    await notify(app)
    await notify(app, { mobile: '13800138001' })
    expect((await call(app, 'GET', '/v1/accounts/app')).body.app_industry).toBe(before - 2)
  })

  it("an app's clock moved through the sandbox is the next request's time", async () => {
    const { app } = await createTestApp()
    const t0 = (await call(app, 'GET', '/_sandbox/clock')).body.now
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 3_600_000 })
    expect((await call(app, 'GET', '/_sandbox/clock')).body.now).toBe(t0 + 3_600_000)
  })

  it('remembers nothing a rolled-back job wrote or read', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const offset = store.apps.get(APP_KEY)!.clockOffsetMs
    await expect(
      store.write(() => {
        store.apps.setClockOffset(APP_KEY, offset + 5_000)
        expect(store.apps.get(APP_KEY)!.clockOffsetMs).toBe(offset + 5_000)
        store.templates.decide(APP_KEY, 2, 2, 'no', 0)
        expect(store.templates.get(APP_KEY, 2)!.status).toBe(2)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(store.apps.get(APP_KEY)!.clockOffsetMs).toBe(offset)
    expect(store.templates.get(APP_KEY, 2)!.status).toBe(1)
    expect((await notify(app)).status).toBe(200)
  })

  it('hands out frozen rows: a caller cannot change what the next request reads', async () => {
    const { app } = await createTestApp()
    const cached = app.store.apps.get(APP_KEY)!
    expect(() => {
      ;(cached as { blacklisted: boolean }).blacklisted = true
    }).toThrow(TypeError)
    expect(() => (cached.ipWhitelist as string[]).push('10.0.0.1')).toThrow(TypeError)
    expect(Object.isFrozen(app.store.templates.get(APP_KEY, 2))).toBe(true)
    expect((await notify(app)).status).toBe(200)
  })
})

describe('invalidation tied to the writing statements', () => {
  it('refuses a writing statement prepared as a read of cached rows, and forgets on every declared write', () => {
    const db = openDatabase(':memory:')
    const memo = createAppMemo(db)
    const sql = cachedStatements(db, memo)
    expect(() => sql.read("UPDATE templates SET status = 1 WHERE app_key = 'a'")).toThrow(/writes/)
    expect(() => sql.read("DELETE FROM signs WHERE app_key = 'a'")).toThrow(/writes/)
    db.exec(`INSERT INTO developers (dev_key, dev_secret) VALUES ('d', 's');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'd', 0);
      INSERT INTO templates (app_key, temp_id, template, type, status, created_at, updated_at)
        VALUES ('a', 1, 'x', 2, 0, 0, 0)`)
    const status = sql.read<[string], { status: number }>(
      'SELECT status FROM templates WHERE app_key = ? AND temp_id = 1',
    )
    const read = () => memo.read('a', 1, key => status.get(key)!.status)
    expect(read()).toBe(0)
    // A writer added later, called from anywhere: the statement itself forgets what it changes.
    const approve = sql.write<[string]>('UPDATE templates SET status = 1 WHERE app_key = ?', key => key)
    approve.run('a')
    expect(read()).toBe(1)
    db.close()
  })

  it('store modules that cache rows prepare every statement through cachedStatements', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'store')
    const cached = (readdirSync(dir, { recursive: true }) as string[])
      .filter(f => f.endsWith('.ts') && !f.endsWith('row-cache.ts'))
      .map(f => ({ f, text: readFileSync(join(dir, f), 'utf8') }))
      // Their own caches, or the per-app cache of the review workflow (templates, signatures).
      .filter(({ text }) => /from '[./]+(engine\/)?(row-cache|reviewable)\.js'/.test(text))
    expect(cached.map(c => c.f).sort()).toEqual(
      expect.arrayContaining(['apps/apps.ts', 'sms/reviewable.ts', 'sms/signs.ts', 'sms/templates.ts']),
    )
    for (const { f, text } of cached) {
      expect(text, f).not.toMatch(/\bdb\.prepare\b|prepareWrite\(|\.forget\(/)
    }
  })
})

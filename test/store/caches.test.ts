import { describe, expect, it } from 'vitest'
import { features } from '../../src/app.js'
import { tablesOf } from '../../src/http/feature.js'
import { createStore, type Store } from '../../src/store/index.js'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'

// The store keeps apps, developers, balances, templates, signatures and the next review due in
// memory (src/store/engine/caches.ts). Every change made through the API, the sandbox or the clock
// must be seen by the very next request.

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

// The contract of the modules that cache rows: every method that writes a cached row forgets it
// (in the method, after its statement), so the next read sees what SQLite holds; a write that rolls
// back leaves the reads as they were. Each row below is one public method of such a module, driven
// through a write job, with what it needs set up first.

const DEV = 'cache-dev' // a developer with no app: removable
const NEW_TEMP = 900 // ids with no row yet: a read remembers that there is none
const NEW_SIGN = 900

/** Every read a request answers from memory, as one value; a store that remembers nothing (`cold`) is the truth. */
function cached(s: Store) {
  const devKey = s.apps.get(APP_KEY)?.devKey ?? ''
  return {
    app: s.apps.get(APP_KEY),
    developer: s.apps.developer(devKey),
    balances: s.apps.balances(APP_KEY),
    developerBalances: s.apps.developerBalances(devKey),
    otherDeveloper: s.apps.developer(DEV),
    otherDeveloperBalances: s.apps.developerBalances(DEV),
    template: s.templates.get(APP_KEY, 2),
    newTemplate: s.templates.get(APP_KEY, NEW_TEMP),
    sign: s.signs.get(APP_KEY, 1),
    newSign: s.signs.get(APP_KEY, NEW_SIGN),
    defaultSign: s.signs.getDefault(APP_KEY),
  }
}

const cold = (s: Store) => cached(createStore(s.db, { tables: tablesOf(features) }))

const balances = { balance: 7, voice: 8, industry: 9, market: 10 }
const templateInput = { template: '新{{order}}', type: 2 as const, ttl: 60, remark: '' }
const signInput = { sign: '新签名', type: 1, remark: '', images: 0 }

/** Puts template 2 and signature 1 under review, due at `at`, behind the caches' back (raw SQL). */
const underReview = (s: Store, at: number) =>
  s.db.exec(`UPDATE templates SET status = 0, review_at = ${at} WHERE app_key = '${APP_KEY}' AND temp_id = 2;
    UPDATE signs SET status = 0, review_at = ${at} WHERE app_key = '${APP_KEY}' AND sign_id = 1`)

interface WriteCase {
  method: string
  setup?: (s: Store, now: number) => void
  run: (s: Store, now: number) => unknown
}

const writes: Record<'apps' | 'templates' | 'signs' | 'appRows', WriteCase[]> = {
  apps: [
    {
      method: 'insert',
      setup: s => s.appRows.remove(APP_KEY),
      run: (s, now) => {
        const devKey = s.apps.developer(DEV)!.devKey
        s.apps.insert(
          {
            appKey: APP_KEY,
            masterSecret: 'x',
            devKey,
            blacklisted: false,
            smsEnabled: true,
            ipWhitelist: [],
            sensitiveWords: [],
            callbackUrl: null,
            settings: {},
            clockOffsetMs: 0,
            balances,
          },
          now,
        )
      },
    },
    {
      method: 'updateSettings',
      run: s => s.apps.updateSettings({ ...s.apps.get(APP_KEY)!, blacklisted: true }),
    },
    { method: 'setClockOffset', run: s => s.apps.setClockOffset(APP_KEY, 3_600_000) },
    {
      method: 'saveDeveloper',
      run: s => s.apps.saveDeveloper({ devKey: DEV, devSecret: 'other', frozen: true, balances }),
    },
    { method: 'removeDeveloper', run: s => s.apps.removeDeveloper(DEV) },
    { method: 'setBalances', run: s => s.apps.setBalances(APP_KEY, balances) },
    { method: 'setDeveloperBalances', run: s => s.apps.setDeveloperBalances(DEV, balances) },
    { method: 'charge', run: s => expect(s.apps.charge(s.apps.get(APP_KEY)!, 'industry', 3)).toBe(true) },
  ],
  templates: [
    {
      method: 'insert',
      run: (s, now) =>
        s.templates.insert(
          {
            appKey: APP_KEY,
            tempId: NEW_TEMP,
            ...templateInput,
            status: 1,
            refuseReason: null,
            reviewAt: null,
          },
          now,
        ),
    },
    { method: 'update', run: (s, now) => s.templates.update(APP_KEY, 2, templateInput, now + 60_000, now) },
    { method: 'remove', run: s => expect(s.templates.remove(APP_KEY, 2)).toBe(true) },
    { method: 'decide', run: (s, now) => s.templates.decide(APP_KEY, 2, 2, 'no', now) },
    {
      method: 'settleReviews',
      setup: underReview,
      run: (s, now) => expect(s.templates.settleReviews(APP_KEY, now)).toHaveLength(1),
    },
  ],
  signs: [
    {
      method: 'insert',
      run: (s, now) =>
        s.signs.insert(
          {
            appKey: APP_KEY,
            signId: NEW_SIGN,
            ...signInput,
            status: 1,
            isDefault: false,
            refuseReason: null,
            reviewAt: null,
          },
          now,
        ),
    },
    { method: 'update', run: (s, now) => s.signs.update(APP_KEY, 1, signInput, now + 60_000, now) },
    { method: 'remove', run: s => expect(s.signs.remove(APP_KEY, 1)).toBe(true) },
    { method: 'decide', run: (s, now) => s.signs.decide(APP_KEY, 1, 2, 'no', now) },
    {
      method: 'settleReviews',
      setup: underReview,
      run: (s, now) => expect(s.signs.settleReviews(APP_KEY, now)).toHaveLength(1),
    },
  ],
  appRows: [{ method: 'remove', run: s => s.appRows.remove(APP_KEY) }],
}

/** The methods of the caching modules that only read (cached or not). */
const reads: Record<keyof typeof writes, string[]> = {
  apps: ['get', 'developer', 'balances', 'developerBalances', 'count', 'otherUsersOf'],
  templates: ['get', 'ids'],
  signs: ['get', 'getDefault', 'pendingOther', 'usedByMessages', 'ids'],
  appRows: ['tables', 'count', 'counting'],
}

const cases = (Object.keys(writes) as Array<keyof typeof writes>).flatMap(module =>
  writes[module].map(c => ({ name: `${module}.${c.method}`, ...c })),
)

async function withCachesWarm(c: WriteCase) {
  const { app, clock } = await createTestApp()
  const { store } = app
  await store.write(() => store.apps.saveDeveloper({ devKey: DEV, devSecret: 's', frozen: false }))
  c.setup?.(store, clock.now())
  const before = cached(store)
  expect(before).toEqual(cold(store))
  return { store, now: clock.now(), before }
}

describe('every method that writes a cached row', () => {
  it('is one of the cases below, or a read: a method added later must be classified', async () => {
    const { app } = await createTestApp()
    for (const module of Object.keys(writes) as Array<keyof typeof writes>) {
      const methods = Object.keys(app.store[module]).sort()
      const classified = [...reads[module], ...writes[module].map(c => c.method)].sort()
      expect(methods, module).toEqual(classified)
    }
  })

  it.each(cases)('$name: the next read sees what SQLite holds', async c => {
    const { store, now, before } = await withCachesWarm(c)
    await store.write(() => c.run(store, now))
    const after = cached(store)
    expect(after).not.toEqual(before) // the case changes something a request reads from memory
    expect(after).toEqual(cold(store))
  })

  it.each(cases)('$name, rolled back: nothing it wrote or read meanwhile is remembered', async c => {
    const { store, now, before } = await withCachesWarm(c)
    await expect(
      store.write(() => {
        c.run(store, now)
        expect(cached(store)).not.toEqual(before) // read inside the job: its own writes
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(cached(store)).toEqual(before)
    expect(cached(store)).toEqual(cold(store))
  })
})

describe('the next review due, remembered per app', () => {
  it.each([
    [
      'templates.insert',
      (s: Store, at: number, now: number) =>
        s.templates.insert(
          {
            appKey: APP_KEY,
            tempId: NEW_TEMP,
            ...templateInput,
            status: 0,
            refuseReason: null,
            reviewAt: at,
          },
          now,
        ),
    ],
    [
      'templates.update',
      (s: Store, at: number, now: number) => s.templates.update(APP_KEY, 2, templateInput, at, now),
    ],
    [
      'signs.insert',
      (s: Store, at: number, now: number) =>
        s.signs.insert(
          {
            appKey: APP_KEY,
            signId: NEW_SIGN,
            ...signInput,
            status: 0,
            isDefault: false,
            refuseReason: null,
            reviewAt: at,
          },
          now,
        ),
    ],
    ['signs.update', (s: Store, at: number, now: number) => s.signs.update(APP_KEY, 1, signInput, at, now)],
  ])('follows %s: a review it submits is settled once due', async (_name, submit) => {
    const { app, clock } = await createTestApp()
    const { store } = app
    const now = clock.now()
    // Remembered: nothing under review.
    expect(
      await store.write(() => [
        ...store.templates.settleReviews(APP_KEY, now + 10),
        ...store.signs.settleReviews(APP_KEY, now + 10),
      ]),
    ).toEqual([])
    await store.write(() => submit(store, now + 10, now))
    const settled = await store.write(() => [
      ...store.templates.settleReviews(APP_KEY, now + 10),
      ...store.signs.settleReviews(APP_KEY, now + 10),
    ])
    expect(settled).toHaveLength(1)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { testConfig } from '../../src/config.js'
import { dispatchPush, parsePush, SLICED_ABOVE } from '../../src/push/send/index.js'
import { tenantOf } from '../../src/tenancy.js'
import { APP_KEY, basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { curlForm } from './file-forms.js'
import { pushBody } from './helpers.js'

// A push to more devices than a slice writes its deliveries a slice at a time, each slice a write
// job of its own (src/push/send/delivery/slices.ts): the outcome is the push a single job would have
// made, answered once the push and its plan are durable, its slices written after by the due-work
// loop, which also finishes a push planned and not finished (a scheduled push's firing, a process
// stopped half-way).

const N = SLICED_ABOVE * 2 + 345

const rid = (i: number) => `1a${String(i).padStart(17, '0')}`

/** N devices of the default app, straight through the store (registering them one request each takes long). */
async function registry(app: SandboxApp, n = N) {
  const now = app.clock.now()
  await app.store.write(() => {
    for (let i = 0; i < n; i++)
      app.store.pushDevices.insert(
        {
          appKey: APP_KEY,
          registrationId: rid(i),
          platform: i % 3 === 0 ? 'ios' : 'android',
          alias: `a${i}`,
          mobile: null,
          online: i % 2 === 0,
          lastOnlineAt: now,
          createdAt: now,
        },
        i % 4 === 0 ? ['even4', 'all'] : ['all'],
      )
  })
}

/**
 * A push planned as a schedule's firing plans it: inside one write job of the caller's, and
 * `then`, in the same job, before any slice is written.
 */
function planned(app: SandboxApp, body: Record<string, unknown>, then = (_msgId: string) => {}) {
  const deps = { store: app.store, clock: app.clock, config: testConfig(), sensitiveWords: [] }
  const tenant = tenantOf(app.clock, app.store.apps.get(APP_KEY)!)
  return app.store.write(() => {
    const outcome = dispatchPush(deps, tenant, parsePush(pushBody(body), APP_KEY), false)
    then(outcome.msgId)
    return outcome
  })
}

/** Runs the due-work loop until every slice of the push is written. */
async function fannedOut(app: SandboxApp, msgId: string) {
  while (app.store.pushes.get(APP_KEY, msgId)?.fanOut) await app.scheduler.tick()
}

/** Every delivery of the push, straight from the store: rid, status, seq. */
const deliveries = (app: SandboxApp, msgId: string) =>
  app.store.pushDeliveries.search(APP_KEY, { msgId }).map(d => [d.registrationId, d.status, d.seq] as const)

describe('a push to more devices than a slice', () => {
  it('reaches exactly its audience, in registry order, once every slice is written', async () => {
    const { app } = await createTestApp()
    await registry(app)
    const before = app.store.seqs.current(APP_KEY)
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['even4'] } }))
    expect(res.status).toBe(200)
    await fannedOut(app, res.body.msg_id)
    const got = deliveries(app, res.body.msg_id)
    // The four default devices hold no such tag; every fourth of ours does.
    const expected = Array.from({ length: N }, (_, i) => i).filter(i => i % 4 === 0)
    expect(got.map(d => d[0]).sort()).toEqual(expected.map(rid).sort())
    expect(app.store.pushes.get(APP_KEY, res.body.msg_id)?.fanOut).toBeNull()
    // The push took the app's next seq (its push.sent); online devices got it at once, each with
    // the next seq after it, in registry order.
    expect(app.store.pushes.get(APP_KEY, res.body.msg_id)?.seq).toBe(before + 1)
    const online = got.filter(d => d[1] === 'delivered')
    expect(online).toHaveLength(expected.filter(i => i % 2 === 0).length)
    expect(online.map(d => d[2]).sort((a, b) => a! - b!)).toEqual(online.map((_, i) => before + i + 2))
    expect(got.filter(d => d[1] === 'pending')).toHaveLength(expected.filter(i => i % 2 === 1).length)
  })

  it('a broadcast: one statement per slice, the same deliveries as a single job makes', async () => {
    const { app } = await createTestApp()
    await registry(app)
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: 'all', platform: ['android'] }))
    expect(res.status).toBe(200)
    await fannedOut(app, res.body.msg_id)
    const got = deliveries(app, res.body.msg_id)
    const android = Array.from({ length: N }, (_, i) => i).filter(i => i % 3 !== 0)
    // Ours on android, and the default app's android fixtures.
    const fixtures = got.filter(d => !d[0].startsWith('1a00000'))
    expect(got.length - fixtures.length).toBe(android.length)
    const seqs = got.filter(d => d[1] === 'delivered').map(d => d[2]!)
    expect(new Set(seqs).size).toBe(seqs.length)
  })

  it('answers 1011 when the registry has nobody in the audience', async () => {
    const { app } = await createTestApp()
    await registry(app)
    // More candidates than a slice (every device holds `all`), none of them holds `nobody`.
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag_and: ['all', 'nobody'] } }))
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(1011)
  })

  it('a file of registration_ids larger than a slice skips the ids the app does not have', async () => {
    const { app } = await createTestApp()
    await registry(app)
    const known = Array.from({ length: 1500 }, (_, i) => rid(i))
    const unknown = Array.from({ length: 200 }, (_, i) => `1a9${String(i).padStart(16, '0')}`)
    const form = curlForm([...known, ...unknown].join('\n'))
    const upload = await app.inject({
      method: 'POST',
      url: '/v3/files/registration_id',
      headers: { authorization: defaultAuth, 'content-type': form.contentType },
      payload: form.body,
    })
    expect(upload.statusCode, upload.body).toBe(200)
    const res = await call(app, 'POST', '/v3/push/file', {
      ...pushBody(),
      audience: { file: { file_id: upload.json().file_id } },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await fannedOut(app, res.body.msg_id)
    expect(
      deliveries(app, res.body.msg_id)
        .map(d => d[0])
        .sort(),
    ).toEqual(known.sort())
  })

  it('a push planned and not finished is finished by the due-work loop (a scheduled push, a restart)', async () => {
    const { app } = await createTestApp()
    await registry(app)
    const outcome = await planned(app, {
      audience: { tag: ['all'] },
      callback: { url: 'http://127.0.0.1:9/x', type: 8 },
    })
    expect(outcome.sliced).toBe(true)
    expect(deliveries(app, outcome.msgId)).toHaveLength(0)
    expect(app.store.pushes.get(APP_KEY, outcome.msgId)?.fanOut).not.toBeNull()
    while (app.store.pushes.get(APP_KEY, outcome.msgId)?.fanOut) await app.scheduler.tick()
    expect(deliveries(app, outcome.msgId)).toHaveLength(N)
    // Push succeeded (8) goes with the last slice, with every target counted.
    const cbs: Array<{ type: string; data: { targets: number } }> = (
      await call(app, 'GET', '/_sandbox/callbacks')
    ).body.callbacks
    expect(cbs.filter(c => c.type === 'JPUSH_PUSH_SUCCEEDED').map(c => c.data.targets)).toEqual([N])
  })

  it('a withdrawn push writes no more slices', async () => {
    const { app } = await createTestApp()
    await registry(app)
    // Withdrawn (DELETE /v3/push/{msg_id}) before its first slice was written.
    const outcome = await planned(app, { audience: { tag: ['all'] } }, msgId =>
      app.store.pushWithdrawals.withdraw(APP_KEY, msgId, app.clock.now()),
    )
    await app.scheduler.tick()
    expect(app.store.pushes.get(APP_KEY, outcome.msgId)?.fanOut).toBeNull()
    expect(deliveries(app, outcome.msgId)).toHaveLength(0)
  })
})

describe('a large push, answered before its slices (issue 32, point 4)', () => {
  // PUSH_SLICE_DEVICES 10: N devices are some 235 slices, a tick of the due-work loop writes 20.
  const small = { pushSliceDevices: 10 }
  // Online devices get it at once: every other one; jpush_received counts those on android.
  const delivered = Array.from({ length: N }, (_, i) => i).filter(i => i % 2 === 0).length
  const androidDelivered = Array.from({ length: N }, (_, i) => i).filter(
    i => i % 2 === 0 && i % 3 !== 0,
  ).length

  it('is answered once durable, other apps are answered while its slices are written, the reports count every device at the end', async () => {
    const { app } = await createTestApp(small)
    await registry(app)
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['all'] } }))
    expect(res.status).toBe(200)
    const msgId: string = res.body.msg_id
    const seen = [deliveries(app, msgId).length]
    expect(seen[0]).toBeLessThan(N)
    expect(app.store.pushes.get(APP_KEY, msgId)?.fanOut).not.toBeNull()

    // Another app, while a tick writes slices: its device and its push are answered (its push
    // written whole, in the job that accepts it) before the large push's last slice.
    const other = { authorization: basic(newKey('o'), newKey('s')) }
    const ticking = app.scheduler.tick()
    const device = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' }, other)
    expect(device.status).toBe(200)
    const small1 = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [device.body.registration_id] } }),
      other,
    )
    expect(small1.status, JSON.stringify(small1.body)).toBe(200)
    expect(app.store.pushes.get(APP_KEY, msgId)?.fanOut).not.toBeNull()
    await ticking

    // The deliveries grow tick by tick, as the report shows them.
    while (app.store.pushes.get(APP_KEY, msgId)?.fanOut) {
      seen.push((await call(app, 'GET', `/v3/received/detail?msg_ids=${msgId}`)).body[0].jpush_received ?? 0)
      await app.scheduler.tick()
    }
    expect(new Set(seen).size).toBeGreaterThan(3)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    const got = deliveries(app, msgId)
    expect(got).toHaveLength(N)
    expect(new Set(got.map(d => d[0])).size).toBe(N)
    const detail = (await call(app, 'GET', `/v3/messages/detail?msg_ids=${msgId}`)).body[0]
    expect(detail.details.notification).toMatchObject({ target: N, sent: N, received: delivered })
    const received = (await call(app, 'GET', `/v3/received/detail?msg_ids=${msgId}`)).body[0]
    expect(received.jpush_received).toBe(androidDelivered)
  })

  it('its report counts in SQL what every delivery says, clicks included (issue 32)', async () => {
    const { app } = await createTestApp(small)
    await registry(app)
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['all'] } }))
    expect(res.status).toBe(200)
    const msgId: string = res.body.msg_id
    await fannedOut(app, msgId)
    // Three devices open it (delivered ones: every even device is online).
    for (const i of [0, 2, 6])
      expect(
        (await call(app, 'POST', `/_sandbox/push/messages/${msgId}/clicks`, { registration_id: rid(i) }))
          .status,
      ).toBe(200)
    // What the report used to count in JavaScript, from every delivery.
    const all = app.store.pushDeliveries.ofPush(APP_KEY, msgId)
    const of = (p: string) => all.filter(d => d.platform === p)
    const delivered = (p: string) => of(p).filter(d => d.status === 'delivered').length
    expect(of('android').length + of('ios').length).toBe(N)
    const received = (await call(app, 'GET', `/v3/report/received/detail?msg_ids=${msgId}`)).body[0]
    expect(received).toMatchObject({
      android_received: delivered('android'),
      ios_apns_sent: of('ios').filter(d => d.route !== null || d.reason === null).length,
      ios_apns_received: delivered('ios'),
      jpush_received: delivered('android'),
    })
    const detail = (await call(app, 'GET', `/v3/messages/detail?msg_ids=${msgId}`)).body[0]
    expect(detail.details.notification).toMatchObject({
      target: N,
      received: delivered('android') + delivered('ios'),
    })
    const clicks = (await call(app, 'GET', `/v3/messages?msg_ids=${msgId}`)).body[0]
    // rid(0), rid(6): iOS (every third); rid(2): Android.
    expect(clicks.android).toMatchObject({ click: 1 })
    expect(clicks.ios).toMatchObject({ click: 2 })
  })

  it('a restart in the middle of its fan-out writes the rest, each device once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'slices-'))
    try {
      const database = join(dir, 'sandbox.db')
      const first = await createTestApp({ ...small, database })
      await registry(first.app)
      const res = await call(
        first.app,
        'POST',
        '/v3/push',
        pushBody({ audience: { tag: ['all'] }, callback: { url: 'http://127.0.0.1:9/x', type: 8 } }),
      )
      expect(res.status).toBe(200)
      const msgId: string = res.body.msg_id
      await first.app.scheduler.tick()
      const part = deliveries(first.app, msgId).length
      expect(part).toBeGreaterThan(0)
      expect(part).toBeLessThan(N)
      await first.app.close()

      // A new process on the same file: its due-work loop finds the plan where the last slice left it.
      const { app } = await createTestApp({ ...small, database })
      await app.ready()
      await fannedOut(app, msgId)
      const got = deliveries(app, msgId)
      expect(got).toHaveLength(N)
      expect(new Set(got.map(d => d[0])).size).toBe(N)
      const seqs = got.filter(d => d[1] === 'delivered').map(d => d[2])
      expect(new Set(seqs).size).toBe(delivered)
      expect((await call(app, 'GET', `/v3/received/detail?msg_ids=${msgId}`)).body[0].jpush_received).toBe(
        androidDelivered,
      )
      expect(
        (await call(app, 'GET', `/v3/messages/detail?msg_ids=${msgId}`)).body[0].details.notification,
      ).toMatchObject({ target: N, sent: N, received: delivered })
      // Push succeeded (8) once, with every target counted.
      const cbs: Array<{ type: string; data: { targets: number } }> = (
        await call(app, 'GET', '/_sandbox/callbacks')
      ).body.callbacks
      expect(cbs.filter(c => c.type === 'JPUSH_PUSH_SUCCEEDED').map(c => c.data.targets)).toEqual([N])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

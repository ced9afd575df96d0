import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { UnlistedEvent } from '../../src/store/engine/index.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'

// Issue 31 point 3, one write verb: a write job lists the events it announces
// (`store.write({ announces: [...] }, job)`, engine/writer.ts: Declared). An event it did not list
// is refused: the job fails alone, and its change with it; what it listed is appended in its
// commit and streamed once that commit is durable.

/** The app's events of `kind` after `after`, oldest first, as GET /_sandbox/events lists them. */
async function eventsOf(app: SandboxApp, kind: string, after = 0) {
  const res = await call(app, 'GET', `/_sandbox/events?kind=${kind}&after=${after}`)
  expect(res.status, res.raw).toBe(200)
  return (res.body.events as Array<{ seq: number; type: string; data: unknown }>).reverse()
}

async function smsEnabled(app: SandboxApp): Promise<boolean> {
  const res = await call(app, 'GET', '/_sandbox/app')
  expect(res.status, res.raw).toBe(200)
  return res.body.sms_enabled
}

/** A change the API shows (the app's sms_enabled), then an event of `type`, in the running job. */
function changeAndAnnounce(app: SandboxApp, type: 'clock.moved' | 'sms.reply', data: unknown) {
  const { store } = app
  const current = store.apps.get(APP_KEY)!
  store.apps.updateSettings({ ...current, smsEnabled: !current.smsEnabled })
  return store.events.append({ appKey: APP_KEY, type, data, at: 0 })
}

describe('a write job and the events it announces', () => {
  it('refuses an event the job does not list: the job fails, its change rolled back, nothing streamed', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/_sandbox/app') // the default app exists
    const before = await smsEnabled(app)
    const from = app.store.seqs.current(APP_KEY)
    // Queued in one turn: one commit, the refused job rolled back alone (writer.ts: savepoints).
    const [refused, listed] = await Promise.allSettled([
      app.store.write({ announces: ['sms.reply'] }, () => changeAndAnnounce(app, 'clock.moved', { n: 1 })),
      app.store.write({ announces: ['clock.moved'] }, () =>
        app.store.events.append({ appKey: APP_KEY, type: 'clock.moved', data: { n: 2 }, at: 0 }),
      ),
    ])
    expect(refused.status).toBe('rejected')
    const err = (refused as PromiseRejectedResult).reason
    expect(err).toBeInstanceOf(UnlistedEvent)
    expect(err.message).toContain("store.write({ announces: ['sms.reply', 'clock.moved'] }, job)")
    expect(listed.status).toBe('fulfilled')
    expect(await smsEnabled(app)).toBe(before)
    const moved = await eventsOf(app, 'clock.moved', from)
    expect(moved.map(e => e.data)).toEqual([{ n: 2 }])
    expect(moved[0]!.seq).toBe((listed as PromiseFulfilledResult<number>).value)
  })

  it('refuses an event from a job that declares none, and one appended outside any job', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/_sandbox/app')
    const from = app.store.seqs.current(APP_KEY)
    await expect(app.store.write(() => changeAndAnnounce(app, 'clock.moved', {}))).rejects.toThrow(
      UnlistedEvent,
    )
    expect(() => app.store.events.append({ appKey: APP_KEY, type: 'clock.moved', data: {}, at: 0 })).toThrow(
      UnlistedEvent,
    )
    // Nor does a job's list outlive it: the next job is checked against its own.
    await app.store.write({ announces: ['clock.moved'] }, () => 0)
    await expect(app.store.write(() => changeAndAnnounce(app, 'clock.moved', {}))).rejects.toThrow(
      UnlistedEvent,
    )
    expect(await eventsOf(app, 'clock.moved', from)).toEqual([])
  })

  it('appends what the job lists in its commit, and the stream hears of it once durable', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/_sandbox/app')
    const before = await smsEnabled(app)
    const from = app.store.seqs.current(APP_KEY)
    // A long-poll waiting for the event: answered by the commit that made it.
    const waiting = call(app, 'GET', `/_sandbox/events?kind=sms.reply&after=${from}&wait=5000`)
    const seq = await app.store.write({ announces: ['sms.reply'] }, () =>
      changeAndAnnounce(app, 'sms.reply', { mobile: '13800138000' }),
    )
    const res = await waiting
    expect(res.status, res.raw).toBe(200)
    expect(res.body.events).toEqual([{ seq, type: 'sms.reply', data: { mobile: '13800138000' } }])
    expect(await smsEnabled(app)).toBe(!before)
  })

  it('lets a transaction inside a job add what it declares, for its own run only', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/_sandbox/app')
    const from = app.store.seqs.current(APP_KEY)
    const { store } = app
    const append = (type: 'clock.moved' | 'sms.reply') =>
      store.events.append({ appKey: APP_KEY, type, data: { type }, at: 0 })
    await store.write({ announces: ['clock.moved'] }, () => {
      store.transaction({ announces: ['sms.reply'] }, () => {
        append('sms.reply')
        append('clock.moved') // the job's own list still holds
      })
      append('clock.moved')
      expect(() => append('sms.reply')).toThrow(UnlistedEvent) // the transaction's ended with it
    })
    expect((await eventsOf(app, 'clock.moved', from)).length).toBe(2)
    expect((await eventsOf(app, 'sms.reply', from)).length).toBe(1)
  })

  it('has every route that announces declare it: a reply posted is an sms.reply event', async () => {
    const { app } = await createTestApp()
    const from = app.store.seqs.current(APP_KEY)
    const res = await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138000', content: 'hi' })
    expect(res.status, res.raw).toBe(200)
    const replies = await eventsOf(app, 'sms.reply', from)
    expect(replies.map(e => (e.data as { content: string }).content)).toEqual(['hi'])
  })
})

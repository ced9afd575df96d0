import { describe, expect, it, vi } from 'vitest'
import {
  type CallbackFilter,
  type CodeFilter,
  EVENT_TYPES,
  type EventOptions,
  type MessageFilter,
  NothingArrived,
  type PushFilter,
  type ReplyFilter,
  type ReportFilter,
  type SandboxClient,
} from '../../client/src/index.js'
import { startReceiver } from '../scheduler/receiver.js'
import { keysOf, valuesOf } from './keys.js'
import { listening } from './sandbox.js'

// Waiting instead of polling, through the client on a real port: `next…()` (after= and wait=),
// latestCode with wait, mark(), and every list's filters as the client sends them.

const s = listening()
const A = '13800138000'
const B = '13900139000'
const text = (mobile: string, order: string) => ({ mobile, temp_id: 2, temp_para: { order, days: '1' } })

/** Resolves once the sandbox holds `n` requests of the app waiting (wait=). */
const held = (sb: SandboxClient, n: number) =>
  vi.waitFor(() => expect(s.app.hub.count(sb.appKey).waiters).toBe(n), { timeout: 10_000 })

describe('nextMessage', () => {
  it('waits for an SMS sent while it waits, then answers at once', async () => {
    const sb = await s.newApp()
    const next = sb.nextMessage({ mobile: A }, { wait: 20_000 })
    await held(sb, 1)
    const sent = await s.vendor(sb, 'POST', '/v1/messages', text(A, 'W1'))
    expect(await next).toMatchObject({ msg_id: sent.body.msg_id, mobile: A, seq: 1 })
    await held(sb, 0)
  })

  it('returns the SMS of its filter one after the other, each filter on its own', async () => {
    const sb = await s.newApp()
    for (const [mobile, order] of [
      [A, 'a1'],
      [B, 'b1'],
      [A, 'a2'],
      [A, 'a3'],
    ] as const)
      await s.vendor(sb, 'POST', '/v1/messages', text(mobile, order))
    const orders = async (mobile: string, n: number) => {
      const got: string[] = []
      for (let i = 0; i < n; i++) got.push((await sb.nextMessage({ mobile })).temp_para?.order ?? '')
      return got
    }
    expect(await orders(A, 3)).toEqual(['a1', 'a2', 'a3'])
    expect(await orders(B, 1)).toEqual(['b1'])
    // Nothing more: within a wait of 0 ms, NothingArrived says what was asked.
    const err = await sb.nextMessage({ mobile: A }, { wait: 0 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NothingArrived)
    // After the seq of a3: 7 (each send's entry in the journal took the seq after its message's).
    expect(err).toMatchObject({
      list: '/_sandbox/sms/messages',
      filter: { mobile: A },
      after: 7,
      waitedMs: 0,
    })
  })

  it('mark() starts from now; an explicit after starts from there', async () => {
    const sb = await s.newApp()
    await s.vendor(sb, 'POST', '/v1/messages', text(A, 'old'))
    // Its message's seq, then its request's in the journal.
    expect(await sb.mark()).toBe(2)
    await expect(sb.nextMessage({}, { wait: 0 })).rejects.toBeInstanceOf(NothingArrived)
    await s.vendor(sb, 'POST', '/v1/messages', text(A, 'new'))
    expect((await sb.nextMessage({ kind: 'template' })).temp_para).toEqual({ order: 'new', days: '1' })
    expect((await sb.nextMessage({ kind: 'template' }, { after: 0 })).temp_para?.order).toBe('old')
  })
})

describe('latestCode with wait', () => {
  it('holds until a code is texted to the mobile', async () => {
    const sb = await s.newApp()
    const latest = sb.latestCode(A, { wait: 20_000 })
    await held(sb, 1)
    const sent = await s.vendor(sb, 'POST', '/v1/codes', { mobile: A, temp_id: 1 })
    expect(await latest).toMatchObject({ msg_id: sent.body.msg_id, mobile: A, kind: 'code', verified: false })
  })
})

describe('nextPush and nextCallback', () => {
  it('nextPush waits for a push to reach the device', async () => {
    const sb = await s.newApp()
    const { registration_id: rid } = await sb.devices.register({ platform: 'ios', alias: 'ana' })
    const next = sb.nextPush({ alias: 'ana' }, { wait: 20_000 })
    await held(sb, 1)
    const pushed = await s.vendor(sb, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [rid] },
      notification: { alert: 'parcel' },
    })
    expect(await next).toMatchObject({ msg_id: pushed.body.msg_id, registration_id: rid, alias: 'ana' })
  })

  it('nextCallback returns each change of a callback: queued, then delivered', async () => {
    const sb = await s.newApp()
    const receiver = await startReceiver()
    await sb.patchApp({ callback_url: receiver.url })
    const sent = await s.vendor(sb, 'POST', '/v1/messages', text(A, 'cb'))
    await sb.advanceClock(5_000) // the report falls due, its callback is tried
    const first = await sb.nextCallback({ kind: 'SMS_REPORT' })
    expect(first).toMatchObject({ type: 'SMS_REPORT', data: { msgId: sent.body.msg_id } })
    const delivered = await sb.nextCallback({ kind: 'SMS_REPORT', state: 'delivered' }, { wait: 10_000 })
    expect(delivered).toMatchObject({ id: first.id, state: 'delivered', attempts: [{ status_code: 200 }] })
  })
})

describe('the lists', () => {
  it('take every filter the client sends', async () => {
    const sb = await s.newApp()
    await s.vendor(sb, 'POST', '/v1/messages', text(A, 'f'))
    const unlimited = { after: 0, since: new Date(0), until: Date.now() + 86_400_000, wait: 0 }
    const window = { ...unlimited, limit: 5 }
    const messages = { ...window, mobile: A, msg_id: '1', kind: 'template' } satisfies Required<MessageFilter>
    const pushes = { ...window, registration_id: 'r', alias: 'a', msg_id: '1' } satisfies Required<PushFilter>
    const callbacks = {
      ...window,
      kind: 'SMS_REPORT',
      state: 'pending',
      mobile: A,
      msg_id: '1',
      registration_id: 'r',
    } satisfies Required<CallbackFilter>
    const reports = { ...window, mobile: A, msg_id: '1' } satisfies Required<ReportFilter>
    const replies = { ...window, mobile: A } satisfies Required<ReplyFilter>
    expect((await sb.messages(messages)).messages).toEqual([])
    expect((await sb.messages({ ...window, mobile: A })).messages).toHaveLength(1)
    expect((await sb.pushes(pushes)).messages).toEqual([])
    expect(await sb.callbacks(callbacks)).toEqual({ callbacks: [], next_after: 0, callback_url: null })
    expect((await sb.reports(reports)).reports).toEqual([])
    expect((await sb.replies(replies)).replies).toEqual([])
    await expect(
      sb.latestCode(A, { ...unlimited, kind: 'code', msg_id: '1' } satisfies Required<CodeFilter>),
    ).rejects.toMatchObject({
      status: 404,
    })
  })

  it('take the query parameters the OpenAPI document lists, no more, no fewer', async () => {
    const doc = (await s.app.inject({ url: '/_sandbox/openapi.json' })).json()
    type Parameter = { in: string; name: string; schema: { enum?: string[] } }
    const query = (path: string): Parameter[] =>
      doc.paths[path].get.parameters.filter((p: Parameter) => p.in === 'query')
    const params = (path: string) =>
      query(path)
        .map(p => p.name)
        .sort()
    const values = (path: string, name: string) =>
      [...(query(path).find(p => p.name === name)?.schema.enum ?? [])].sort()
    const window = { after: true, since: true, until: true, limit: true, wait: true } as const
    const { limit: _, ...unlimited } = window
    expect(params('/_sandbox/sms/messages')).toEqual(
      keysOf<MessageFilter>({ ...window, mobile: true, msg_id: true, kind: true }),
    )
    expect(params('/_sandbox/sms/codes/latest')).toEqual(
      keysOf<CodeFilter>({ ...unlimited, msg_id: true, kind: true })
        .concat('mobile')
        .sort(),
    )
    expect(params('/_sandbox/push/messages')).toEqual(
      keysOf<PushFilter>({ ...window, registration_id: true, alias: true, msg_id: true }),
    )
    expect(params('/_sandbox/callbacks')).toEqual(
      keysOf<CallbackFilter>({
        ...window,
        kind: true,
        state: true,
        mobile: true,
        msg_id: true,
        registration_id: true,
      }),
    )
    expect(params('/_sandbox/sms/reports')).toEqual(
      keysOf<ReportFilter>({ ...window, mobile: true, msg_id: true }),
    )
    expect(params('/_sandbox/sms/replies')).toEqual(keysOf<ReplyFilter>({ ...window, mobile: true }))
    type Kind<F extends { kind?: string }> = NonNullable<F['kind']>
    expect(values('/_sandbox/sms/messages', 'kind')).toEqual(
      valuesOf<Kind<MessageFilter>>({ code: true, voice_code: true, template: true }),
    )
    expect(values('/_sandbox/sms/codes/latest', 'kind')).toEqual(
      valuesOf<Kind<CodeFilter>>({ code: true, voice_code: true }),
    )
    expect(values('/_sandbox/callbacks', 'kind')).toEqual(
      valuesOf<Kind<CallbackFilter>>({
        SMS_REPORT: true,
        SMS_REPLY: true,
        SMS_TEMPLATE: true,
        SMS_SIGN: true,
        JPUSH_DELIVERED: true,
        JPUSH_CLICKED: true,
        JPUSH_NOT_DELIVERED: true,
        JPUSH_PUSH_SUCCEEDED: true,
      }),
    )
    expect(values('/_sandbox/callbacks', 'state')).toEqual(
      valuesOf<NonNullable<CallbackFilter['state']>>({
        pending: true,
        sending: true,
        delivered: true,
        failed: true,
      }),
    )
    expect(values('/_sandbox/events', 'kind')).toEqual([...EVENT_TYPES].sort())
    // The stream's own: `token` is for a browser's EventSource; the client sends Basic credentials.
    expect(params('/_sandbox/events')).toEqual(
      expect.arrayContaining(keysOf<EventOptions>({ kind: true, after: true })),
    )
  })
})

import { describe, expect, it, vi } from 'vitest'
import { NothingArrived, OperatorClient, SandboxError } from '../../client/src/index.js'
import { listening } from './sandbox.js'

// The journal, the app's document and the operator through the typed client, over a real port.

const s = listening()
const A = '13800138000'
const text = (order: string) => ({ mobile: A, temp_id: 2, temp_para: { order, days: '1' } })

describe('requests() and nextRequest()', () => {
  it('read the journal with its filters, and wait for the next refusal', async () => {
    const sb = await s.newApp()
    const sent = await s.vendor(sb, 'POST', '/v1/messages', text('J1'))
    await s.vendor(sb, 'POST', '/v1/messages', { mobile: A, temp_id: 77 })
    const page = await sb.requests({ path: '/v1/messages' })
    expect(page.requests.map(r => [r.status, r.code, r.reason])).toEqual([
      [403, 50013, 'the app has no template 77'],
      [200, null, null],
    ])
    expect((await sb.requests({ msg_id: sent.body.msg_id })).requests).toHaveLength(1)
    expect((await sb.requests({ status: 403 })).requests).toHaveLength(1)

    // The refusal there is, then the next one, once it comes.
    expect(await sb.nextRequest({ status: 403 })).toMatchObject({ code: 50013 })
    const next = sb.nextRequest({ status: 403 }, { wait: 20_000 })
    await vi.waitFor(() => expect(s.app.hub.count(sb.appKey).waiters).toBe(1), { timeout: 10_000 })
    await s.vendor(sb, 'POST', '/v1/messages', { mobile: '123', temp_id: 2 })
    expect(await next).toMatchObject({
      path: '/v1/messages',
      code: 50006,
      reason: expect.stringContaining('field `mobile`: "123" is not a mainland mobile'),
    })
    await expect(sb.nextRequest({ status: 403 }, { wait: 0 })).rejects.toBeInstanceOf(NothingArrived)
  })
})

describe('exportApp() and importApp()', () => {
  it('carry an app to another one, which then holds the same', async () => {
    const sb = await s.newApp()
    await s.vendor(sb, 'POST', '/v1/messages', text('E1'))
    await sb.faults.arm({ path: '/v1/codes', code: 50019 })
    const doc = await sb.exportApp()
    // One msg_id names one message of one app in a sandbox: the first app goes, then the other
    // takes its document.
    await sb.deleteApp()
    const other = await s.newApp()
    expect(await other.importApp(doc)).toMatchObject({ app_key: other.appKey, imported: true, faults: 1 })
    expect({ ...(await other.exportApp()), app_key: sb.appKey }).toEqual(doc)
    await expect(sb.importApp({ ...doc, version: 2 as 1 })).rejects.toMatchObject({
      status: 400,
      code: 90020,
    })
  })
})

describe('OperatorClient', () => {
  it('lists every app and opens any one of them without its secret', async () => {
    const sb = await s.newApp()
    await s.vendor(sb, 'POST', '/v1/messages', text('O1'))
    const operator = new OperatorClient({ baseUrl: s.url })
    const { apps } = await operator.apps({ prefix: sb.appKey })
    expect(apps).toEqual([
      expect.objectContaining({ app_key: sb.appKey, counts: expect.objectContaining({ texts: 1 }) }),
    ])
    const opened = operator.app(sb.appKey)
    expect((await opened.messages()).messages.map(m => m.temp_para?.order)).toEqual(['O1'])
    expect((await opened.requests()).requests[0]).toMatchObject({ path: '/v1/messages', operator: false })
    const wrong = new OperatorClient({ baseUrl: s.url, password: 'nope' })
    await expect(wrong.apps()).rejects.toBeInstanceOf(SandboxError)
    await expect(sb.app()).resolves.toMatchObject({ app_key: sb.appKey })
  })
})

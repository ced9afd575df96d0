// The manual's reference of the Node client (docs/testing.md, "Every call, in one test") runs here
// as written: the code between the markers is that page's ```ts block, but for the client's
// import path. Below them, the suite's side: a sandbox for it (the example reads its address from
// SANDBOX), the check that the page shows this code, and that it calls every call the client has.

// docs/testing.md (every call): begin
import { expect, it } from 'vitest'
import {
  createApp,
  DEFAULT_APP,
  NothingArrived,
  OperatorClient,
  randomKey,
  SandboxClient,
  SandboxError,
  waitUntilReady,
} from '../../client/src/index.js'

const MOBILE = '13800138000'

it('uses every call of the client', async () => {
  // Where and who: the sandbox once ready; an app of the test's own; any app by its credentials.
  const SANDBOX = process.env.SANDBOX ?? 'http://127.0.0.1:8080'
  await waitUntilReady(SANDBOX)
  const sb = await createApp({ baseUrl: SANDBOX, prefix: 'ref' })
  const defaultApp = new SandboxClient({ baseUrl: SANDBOX }) // DEFAULT_APP's credentials
  expect((await defaultApp.app()).app_key).toBe(DEFAULT_APP.appKey)
  const later = new SandboxClient({ baseUrl: SANDBOX, appKey: randomKey('ref'), masterSecret: randomKey() })
  // The application under test, calling the vendor's APIs with the app's credentials.
  const vendor = (path: string, body: unknown) =>
    fetch(`${SANDBOX}${path}`, {
      method: 'POST',
      headers: { authorization: sb.authorization },
      body: JSON.stringify(body),
    })

  // The app: its settings, a change, its size.
  expect((await sb.app()).app_key).toBe(sb.appKey)
  expect((await sb.patchApp({ sensitive_words: ['refund'] })).sensitive_words).toEqual(['refund'])
  expect((await sb.storage()).rows).toBeTypeOf('object')

  // Texts and codes: the lists, the latest code, the next item, a mark to go on from.
  await vendor('/v1/codes', { mobile: MOBILE, temp_id: 1 })
  const code = await sb.latestCode(MOBILE, { wait: 5_000 })
  expect((await sb.messages({ mobile: MOBILE, kind: 'code' })).messages[0]?.code).toBe(code.code)
  await sb.mark()
  await vendor('/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: { order: 'R1', days: '2' } })
  expect((await sb.nextMessage({ mobile: MOBILE, kind: 'template' })).content).toContain('R1')

  // The carrier, the handsets and the reviewer; the clock that makes reports fall due.
  await sb.sms.setReport(code.msg_id, 4001)
  const before = await sb.clock()
  expect((await sb.advanceClock(60_000)).now).toBeGreaterThanOrEqual(before.now + 60_000)
  expect((await sb.reports({ msg_id: code.msg_id })).reports[0]?.status).toBe(4001)
  await sb.sms.reply(MOBILE, 'Thanks')
  expect((await sb.replies({ mobile: MOBILE })).replies[0]?.content).toBe('Thanks')
  expect((await sb.sms.reviewTemplate(4, 1)).status).toBe(1) // template 4 was under review
  expect((await sb.sms.reviewSign(1, 1)).status).toBe(1) // 2 and a reason would reject it

  // Devices and pushes, test devices, push templates, images.
  const { registration_id: rid } = await sb.devices.register({ platform: 'android', alias: 'refuser' })
  expect((await sb.devices.list()).map(d => d.registration_id)).toContain(rid)
  await vendor('/v3/push', {
    platform: 'all',
    audience: { alias: ['refuser'] },
    notification: { alert: 'Hi' },
  })
  const push = await sb.nextPush({ registration_id: rid })
  expect((await sb.pushes({ msg_id: push.msg_id })).messages).toHaveLength(1)
  expect((await sb.devices.click(push.msg_id, rid)).kind).toBe('notification')
  expect((await sb.devices.setOnline(rid, false)).online).toBe(false)
  await sb.testDevices.set(rid, 'QA phone')
  expect((await sb.testDevices.list()).map(d => d.registration_id)).toEqual([rid])
  await sb.testDevices.remove(rid)
  const template = await sb.pushTemplates.create({
    name: 'Hello',
    push: { platform: 'all', notification: { alert: 'Hi {{name}}' } },
  })
  await sb.pushTemplates.save(template.id, {
    name: 'Hello',
    push: { platform: 'all', notification: { alert: 'Hello {{name}}' } },
  })
  expect((await sb.pushTemplates.list()).map(t => t.id)).toEqual([template.id])
  await sb.pushTemplates.remove(template.id)
  expect(await sb.images.list()).toEqual([])
  await expect(sb.images.get('nope')).rejects.toBeInstanceOf(SandboxError)

  // Callbacks: none without a callback URL; what did not arrive in time throws NothingArrived.
  expect((await sb.callbacks()).callbacks).toEqual([])
  await expect(sb.nextCallback({ kind: 'SMS_REPORT' }, { wait: 100 })).rejects.toBeInstanceOf(NothingArrived)

  // Faults, and the journal that says why a request was refused.
  await sb.faults.arm({ path: '/v1/codes', code: 50019, times: 2 })
  expect((await sb.faults.list())[0]?.remaining).toBe(2)
  expect((await vendor('/v1/codes', { mobile: MOBILE, temp_id: 1 })).status).toBe(500)
  expect((await sb.nextRequest({ path: '/v1/codes', status: 500 })).reason).toContain('fault')
  expect((await sb.requests({ code: 50019 })).requests).toHaveLength(1)
  expect(await sb.faults.disarm()).toBe(1) // the one left

  // The event stream.
  const events = await sb.events({ kind: 'sms.sent' })
  await vendor('/v1/codes', { mobile: '13900139000', temp_id: 1 })
  for await (const event of events) {
    expect(event.data).toMatchObject({ mobile: '13900139000' })
    break // leaving the loop closes the stream (or: await events.close())
  }

  // The operator: every app, and any one of them without its secret.
  const operator = new OperatorClient({ baseUrl: SANDBOX })
  expect((await operator.apps({ prefix: 'ref' })).apps.map(a => a.app_key)).toContain(sb.appKey)
  expect((await operator.app(sb.appKey).app()).app_key).toBe(sb.appKey)

  // The app's document: exported, the app removed, the document imported into another app.
  const document = await sb.exportApp()
  expect((await sb.deleteApp()).deleted).toBe(true)
  expect((await later.importApp(document)).imported).toBe(true)
  expect((await later.latestCode(MOBILE)).code).toBe(code.code)

  // A clock set to a time, and a reset: the app as at its first use (its clock too).
  expect((await later.setClock('2031-01-01T00:00:00Z')).now).toBe(Date.parse('2031-01-01T00:00:00Z'))
  expect((await later.reset()).clock.offset_ms).toBe(0)
  await later.deleteApp()
})
// docs/testing.md (every call): end

const { describe } = await import('vitest')
const { readFileSync } = await import('node:fs')
const client = await import('../../client/src/index.js')
const { sandboxInEnv } = await import('./sandbox.js')
sandboxInEnv()

describe('docs/testing.md, the client call by call', () => {
  const read = (url: URL) => readFileSync(url, 'utf8')
  const page = read(new URL('../../docs/testing.md', import.meta.url))
  const example =
    /\/\/ docs\/testing\.md \(every call\): begin\n([\s\S]*?)\/\/ docs\/testing\.md \(every call\): end\n/.exec(
      read(new URL(import.meta.url)),
    )?.[1]

  it('shows this example as it runs here', () => {
    const shown = /^#+ Every call, in one test[\s\S]*?```ts\n([\s\S]*?)```/m.exec(page)?.[1]
    expect(example).toBeDefined()
    expect(shown).toBe(example?.replace("'../../client/src/index.js'", "'jiguang-sandbox/client'"))
  })

  it('calls, and lists in its table, every call the client has', () => {
    const sb = new client.SandboxClient()
    const methods = (of: object) => Object.getOwnPropertyNames(of).filter(n => n !== 'constructor')
    const groups = ['faults', 'devices', 'sms', 'images', 'testDevices', 'pushTemplates'] as const
    const calls = [
      ...methods(client.SandboxClient.prototype),
      ...groups.flatMap(g => Object.keys(sb[g]).map(n => `${g}.${n}`)),
      ...methods(client.OperatorClient.prototype),
    ]
    expect(calls.length).toBeGreaterThan(40)
    const table = /^\| call \| endpoint \|[\s\S]*?\n\n/m.exec(page)?.[0] ?? ''
    for (const call of [...calls.map(c => `.${c}(`), 'createApp(', 'waitUntilReady(', 'randomKey(']) {
      expect(example, `the example calls ${call}`).toContain(call)
      expect(table, `the table lists ${call}`).toContain(`\`${call.replace(/^\./, '')}`)
    }
  })
})

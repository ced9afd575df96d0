import { describe, expect, it } from 'vitest'
import { type Started, startSandbox } from '../client/sandbox.js'
import { afterEachTest } from '../teardown.js'
import { type Agent, overHttp, overStdio } from './agent.js'
import { beijing, newApp, type TestApp, vendor } from './vendor.js'

// A coding agent's session, scripted, over each transport with the MCP SDK's own client: the code
// under test sends through /v1, the agent reads the code, waits for the text, learns from the
// journal why a send was refused, moves the clock until a scheduled text goes out, arms a fault
// and sees it refuse, and carries the app's document to a second sandbox.

const MOBILE = '13800138000'
const OTHER = '13900139001'
const LATER = '13700137002'

const sandboxes: Started[] = []
afterEachTest(async () => {
  await Promise.all(sandboxes.splice(0).map(s => s.close()))
})
async function sandbox(): Promise<Started> {
  const s = await startSandbox()
  sandboxes.push(s)
  return s
}

/** The session, on the sandbox at `url`, for `app`; answers the app's exported document. */
async function session(agent: Agent, url: string, app: TestApp) {
  // A code, as the code under test sends it; the agent reads it as the user would.
  const sent = await vendor(url, app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
  expect(sent.status).toBe(200)
  const code = await agent.call('latest_code', { mobile: MOBILE })
  expect(code.isError).toBe(false)
  expect(code.structured).toMatchObject({
    msg_id: sent.body.msg_id,
    mobile: MOBILE,
    kind: 'code',
    verified: false,
  })
  expect(code.structured.code).toMatch(/^\d{6}$/)
  expect(code.text).toContain(`code ${code.structured.code} for ${MOBILE}`)

  const text = await agent.call('wait_for_text', { mobile: MOBILE, timeout_ms: 5_000 })
  expect(text.structured.found).toMatchObject({ msg_id: sent.body.msg_id, code: code.structured.code })
  expect(text.text).toContain(sent.body.msg_id)
  // Nothing more for that mobile: the wait ends saying what did arrive instead.
  const other = await vendor(url, app, 'POST', '/v1/messages', {
    mobile: OTHER,
    temp_id: 2,
    temp_para: { order: 'M1', days: '1' },
  })
  const none = await agent.call('wait_for_text', {
    mobile: MOBILE,
    after: text.structured.next_after,
    timeout_ms: 300,
  })
  expect(none.isError).toBe(false)
  expect(none.structured.found).toBeNull()
  expect(none.structured.arrived.map((m: { msg_id: string }) => m.msg_id)).toEqual([other.body.msg_id])
  expect(none.text).toContain(`no text matching {"mobile":"${MOBILE}"}`)
  expect(none.text).toContain(other.body.msg_id)

  // A refused send, and the journal's reason for it.
  const refused = await vendor(url, app, 'POST', '/v1/messages', {
    mobile: MOBILE,
    temp_id: 4,
    temp_para: { code: '1' },
  })
  expect(refused.body).toEqual({ error: { code: 50020, message: expect.any(String) } })
  const why = await agent.call('explain_request', { code: 50020 })
  expect(why.structured.requests).toHaveLength(1)
  const entry = why.structured.requests[0]
  expect(entry).toMatchObject({ method: 'POST', path: '/v1/messages', status: refused.status, code: 50020 })
  expect(entry.reason).toMatch(/template 4/)
  expect(why.text).toContain(`reason: ${entry.reason}`)
  expect(why.text).toContain('"temp_id":4')

  // A scheduled text falls due when the agent moves the clock past it.
  const { structured: settings } = await agent.call('app_settings')
  const sendAt = settings.clock.now + 3_600_000
  const scheduled = await vendor(url, app, 'POST', '/v1/schedule', {
    send_time: beijing(sendAt),
    mobile: LATER,
    temp_id: 2,
    temp_para: { order: 'S1', days: '2' },
  })
  expect(scheduled.status).toBe(200)
  expect((await agent.call('list_texts', { mobile: LATER })).structured.messages).toEqual([])
  const moved = await agent.call('advance_clock', { ms: 3_600_000 })
  expect(moved.structured.now).toBeGreaterThanOrEqual(sendAt)
  const sentOnTheWay = moved.structured.fell_due.find((e: { type: string }) => e.type === 'sms.sent')
  expect(sentOnTheWay.data).toMatchObject({ mobile: LATER, schedule_id: scheduled.body.schedule_id })
  expect(moved.text).toContain('sms.sent')
  const later = await agent.call('list_texts', { mobile: LATER })
  expect(later.structured.messages).toHaveLength(1)
  expect(later.structured.messages[0].schedule_id).toBe(scheduled.body.schedule_id)

  // A fault, and the refusal it makes, named by the journal.
  const fault = await agent.call('arm_fault', { path: '/v1/codes', code: 50019 })
  expect(fault.structured).toMatchObject({ path: '/v1/codes', code: 50019, remaining: 1 })
  const failed = await vendor(url, app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
  expect(failed).toEqual({ status: 500, body: { error: { code: 50019, message: 'server error' } } })
  const faulted = await agent.call('explain_request', { path: '/v1/codes', status: 500 })
  expect(faulted.structured.requests[0].reason).toContain(`fault #${fault.structured.id}`)

  const exported = await agent.call('export_app')
  expect(exported.structured.document).toMatchObject({
    format: 'jiguang-sandbox/app',
    version: 1,
    app_key: app.appKey,
  })
  return {
    document: exported.structured.document,
    refusedReason: entry.reason as string,
    codeMsgId: sent.body.msg_id,
  }
}

/** The document imported into an app of a second sandbox, through its own /_sandbox/mcp. */
async function intoASecondSandbox(done: Awaited<ReturnType<typeof session>>) {
  const second = await sandbox()
  const app = newApp('mcpimport')
  const agent = await overHttp(second.url, app.authorization)
  const imported = await agent.call('import_app', { document: done.document })
  expect(imported.isError).toBe(false)
  expect(imported.structured).toMatchObject({ app_key: app.appKey, imported: true })
  expect(imported.structured.rows).toBeGreaterThan(0)
  // The second sandbox holds the first one's texts and journal: the same code, the same reason.
  expect((await agent.call('latest_code', { mobile: MOBILE })).structured.msg_id).toBe(done.codeMsgId)
  expect((await agent.call('explain_request', { code: 50020 })).structured.requests[0].reason).toBe(
    done.refusedReason,
  )
}

describe('a scripted agent session', () => {
  it('over Streamable HTTP at /_sandbox/mcp, with the app’s credentials', { timeout: 60_000 }, async () => {
    const s = await sandbox()
    const app = newApp()
    const agent = await overHttp(s.url, app.authorization)
    await intoASecondSandbox(await session(agent, s.url, app))
  })

  it('over stdio, `jiguang-sandbox mcp --url …` as a process', { timeout: 60_000 }, async () => {
    const s = await sandbox()
    const app = newApp()
    const agent = await overStdio([
      '--url',
      s.url,
      '--app-key',
      app.appKey,
      '--master-secret',
      app.masterSecret,
    ])
    await intoASecondSandbox(await session(agent, s.url, app))
    expect(agent.stderr()).toBe('')
  })
})

import { describe, expect, it, vi } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { type Started, startSandbox } from '../client/sandbox.js'
import { defaultAuth } from '../helpers.js'
import { afterEachTest } from '../teardown.js'
import { overHttp } from './agent.js'
import { newApp } from './vendor.js'

// What an agent can get wrong gets an MCP error naming the problem — the SDK's for the protocol
// (an unknown tool, arguments that do not fit the schema, a wait past its bound), the control
// plane's for what it refuses — never a crash: the server answers the next call as before. A wait
// is one of the requests the sandbox holds, bounded as the others are.

const started: Array<{ close(): Promise<void> }> = []
afterEachTest(async () => {
  await Promise.all(started.splice(0).map(s => s.close()))
})
async function sandbox(): Promise<Started> {
  const s = await startSandbox()
  started.push(s)
  return s
}

describe('bad input', () => {
  it('is an error naming the problem, and the server goes on', async () => {
    const s = await sandbox()
    const agent = await overHttp(s.url, newApp().authorization)
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['no_such_tool', {}, /Tool no_such_tool not found/],
      ['latest_code', {}, /Invalid arguments for tool latest_code: .*mobile/],
      ['latest_code', { mobile: 13800138000 }, /expected string, received number at mobile/],
      ['wait_for_text', { timeout_ms: 60_000 }, /Too big: expected number to be <=30000 at timeout_ms/],
      ['latest_code', { mobile: '13800138000', wait_ms: 30_001 }, /<=30000 at wait_ms/],
      ['review_template', { temp_id: 'four', decision: 'approve' }, /temp_id/],
      ['review_template', { temp_id: 4, decision: 'maybe' }, /decision/],
      ['register_device', { platform: 'symbian' }, /platform/],
      // The control plane's refusals, as it words them.
      ['latest_code', { mobile: '13800138000' }, /90044 no verification code/],
      ['arm_fault', { path: '/v1/mesages', code: 50019 }, /90020 "path": no route serves \/v1\/mesages/],
      ['advance_clock', {}, /90020/],
      ['advance_clock', { ms: 1, to: '2030-01-01T00:00:00Z' }, /90020/],
      ['advance_clock', { to: '2000-01-01T00:00:00Z' }, /90053 the clock only moves forward/],
      ['review_template', { temp_id: 999, decision: 'approve' }, /90041/],
      ['click_push', { msg_id: '1', registration_id: '1a0018970a8b0fd6c0e' }, /90040|90055/],
      [
        'import_app',
        { document: { format: 'jiguang-sandbox/app', version: 2 } },
        /this sandbox reads version 1 of the document, not 2/,
      ],
      ['app_settings', { change: { balances: { industry: -1 } } }, /90020 "balances.industry"/],
      ['app_settings', { change: { master_secret: 'x' } }, /"master_secret": cannot be changed/],
    ]
    for (const [tool, args, problem] of cases) {
      const answer = await agent.call(tool, args)
      expect(answer.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
      expect(answer.text, `${tool} ${JSON.stringify(args)}`).toMatch(problem)
      expect(answer.structured, tool).toBeUndefined()
    }
    // Still answering.
    expect((await agent.call('list_devices')).structured.devices).toHaveLength(4)
  })

  it('at the HTTP level: the protocol’s errors, and the control plane’s envelope', async () => {
    const s = await sandbox()
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${s.url}/_sandbox/mcp`, {
        method: 'POST',
        headers: {
          authorization: defaultAuth,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      })
    // Not a JSON-RPC message: the SDK's parse error.
    const notRpc = await post(JSON.stringify({ hello: 'world' }))
    expect(notRpc.status).toBe(400)
    expect((await notRpc.json()).error).toMatchObject({ code: -32700 })
    // A client that does not take what the transport answers.
    const notAccepted = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {
      accept: 'text/html',
    })
    expect(notAccepted.status).toBe(406)
    // Not JSON, or a body too large for the route: the control plane's own refusals.
    const notJson = await post('{"jsonrpc":')
    expect(notJson.status).toBe(400)
    expect((await notJson.json()).error.code).toBe(90010)
    // No stream is held open: GET is the surface's 405.
    const get = await fetch(`${s.url}/_sandbox/mcp`, { headers: { authorization: defaultAuth } })
    expect(get.status).toBe(405)
    expect((await get.json()).error.code).toBe(90005)
    // A ping still works after all that.
    const ping = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }))
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} })
  })
})

describe('a wait through /_sandbox/mcp', () => {
  /** A sandbox on a real port whose waits are bounded at one per client address. */
  async function boundedSandbox(): Promise<{ app: SandboxApp; url: string }> {
    const app = await buildApp(testConfig({ maxWaitingPerClient: 1 }), { clock: new ManualClock() })
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    started.push({
      close: async () => {
        const closing = app.close()
        app.server.closeAllConnections()
        await closing
      },
    })
    return { app, url }
  }

  it('is held like any wait= request: counted for the client, refused past its bound, let go when the agent hangs up', async () => {
    const { app, url } = await boundedSandbox()
    const a = newApp()
    const first = await overHttp(url, a.authorization)
    const held = first.call('wait_for_text', { mobile: '13800138000', after: 0, timeout_ms: 20_000 })
    held.catch(() => {})
    await vi.waitFor(() => expect(app.hub.count(a.appKey).waiters).toBe(1))
    expect(app.held.waiting.of('127.0.0.1')).toBe(1)
    // A second wait from the same address is over MAX_WAITING_REQUESTS_PER_CLIENT.
    const second = await overHttp(url, newApp().authorization)
    const refused = await second.call('wait_for_push', { after: 0, timeout_ms: 5_000 })
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(
      /90060 too many requests waiting from 127\.0\.0\.1: at most 1 .*MAX_WAITING_REQUESTS_PER_CLIENT/,
    )
    // The agent that waits goes away: its wait is let go, not held to its end.
    await first.close()
    await vi.waitFor(() => expect(app.hub.count(a.appKey).waiters).toBe(0))
    expect(app.held.waiting.of('127.0.0.1')).toBe(0)
  })
})

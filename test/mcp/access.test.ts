import { describe, expect, it } from 'vitest'
import { type Started, startSandbox } from '../client/sandbox.js'
import { basic } from '../helpers.js'
import { afterEachTest } from '../teardown.js'
import { overHttp, overStdio } from './agent.js'
import { newApp, vendor } from './vendor.js'

// Whose the tools are: an app's credentials see that app and never another (the control plane
// refuses what they name, 403 90006); the operator's see every app, each call naming its own.

const MOBILE = '13800138000'
const OPERATOR = basic('operator', 'operator')

const started: Started[] = []
afterEachTest(async () => {
  await Promise.all(started.splice(0).map(s => s.close()))
})

/** A sandbox where two apps each texted a code. */
async function twoApps() {
  const s = await startSandbox()
  started.push(s)
  const [a, b] = [newApp('mcpa'), newApp('mcpb')]
  const sentA = await vendor(s.url, a, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
  const sentB = await vendor(s.url, b, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
  return { s, a, b, msgA: sentA.body.msg_id as string, msgB: sentB.body.msg_id as string }
}

describe('an app’s credentials', () => {
  it('see their own app, never another, over either transport', { timeout: 30_000 }, async () => {
    const { s, a, b, msgA, msgB } = await twoApps()
    for (const agent of [
      await overHttp(s.url, a.authorization),
      await overStdio(['--url', s.url, '--app-key', a.appKey, '--master-secret', a.masterSecret]),
    ]) {
      expect((await agent.call('latest_code', { mobile: MOBILE })).structured.msg_id).toBe(msgA)
      const texts = await agent.call('list_texts')
      expect(texts.structured.messages.map((m: { msg_id: string }) => m.msg_id)).toEqual([msgA])
      expect(texts.text).not.toContain(msgB)
      // Naming the other app: the control plane refuses these credentials for it.
      for (const [tool, args] of [
        ['list_texts', {}],
        ['latest_code', { mobile: MOBILE }],
        ['export_app', {}],
        ['reset_app', {}],
      ] as const) {
        const refused = await agent.call(tool, { ...args, app_key: b.appKey })
        expect(refused.isError, tool).toBe(true)
        expect(refused.text, tool).toContain('90006')
        expect(refused.text, tool).not.toContain(msgB)
      }
      // The operator's own tool is not theirs.
      const apps = await agent.call('list_apps')
      expect(apps).toMatchObject({ isError: true, text: expect.stringContaining('Tool list_apps not found') })
    }
    // b was not reset by a's attempt.
    const bAgent = await overHttp(s.url, b.authorization)
    expect((await bAgent.call('latest_code', { mobile: MOBILE })).structured.msg_id).toBe(msgB)
  })
})

describe('the operator’s credentials', () => {
  it('see every app, the call naming it; list_apps lists them', async () => {
    const { s, a, b, msgA, msgB } = await twoApps()
    const agent = await overHttp(s.url, OPERATOR)
    const unnamed = await agent.call('list_texts')
    expect(unnamed.isError).toBe(true)
    expect(unnamed.text).toContain("app_key: required with the operator's credentials")
    expect((await agent.call('latest_code', { app_key: a.appKey, mobile: MOBILE })).structured.msg_id).toBe(
      msgA,
    )
    expect((await agent.call('latest_code', { app_key: b.appKey, mobile: MOBILE })).structured.msg_id).toBe(
      msgB,
    )
    const apps = await agent.call('list_apps', { prefix: 'mcp' })
    expect(apps.structured.apps.map((x: { app_key: string }) => x.app_key).sort()).toEqual(
      [a.appKey, b.appKey].sort(),
    )
    expect(apps.text).toContain(a.appKey)
    // An app that does not exist is the control plane's 404 90048.
    const missing = await agent.call('list_texts', { app_key: 'nosuchapp000000000000001' })
    expect(missing).toMatchObject({ isError: true, text: expect.stringContaining('90048') })
    // Its acts are journaled for the app, as the operator's.
    await agent.call('advance_clock', { app_key: a.appKey, ms: 1000 })
    const journal = await overHttp(s.url, a.authorization)
    const moved = await journal.call('explain_request', { path: '/_sandbox/clock' })
    expect(moved.structured.requests[0]).toMatchObject({
      operator: true,
      user_agent: expect.stringMatching(/^jiguang-sandbox-mcp\//),
    })
  })

  it('with X-Sandbox-App, act on that app when a call names none', async () => {
    const { s, a, msgA } = await twoApps()
    const agent = await overHttp(s.url, OPERATOR, { 'x-sandbox-app': a.appKey })
    expect((await agent.call('latest_code', { mobile: MOBILE })).structured.msg_id).toBe(msgA)
    const link = await agent.call('ui_link', { view: 'phones', mobile: MOBILE, msg_id: msgA })
    expect(link.structured.url).toBe(`${s.url}/_sandbox/ui/?app=${a.appKey}#/phones/${MOBILE}/${msgA}`)
  })

  it('are refused when wrong, before any tool: 401 in the control plane’s envelope', async () => {
    const { s } = await twoApps()
    for (const [authorization, code] of [
      [undefined, 90001],
      [basic('operator', 'wrong'), 90002],
    ] as const) {
      const res = await fetch(`${s.url}/_sandbox/mcp`, {
        method: 'POST',
        headers: {
          ...(authorization ? { authorization } : {}),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(res.status).toBe(401)
      expect((await res.json()).error.code).toBe(code)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { REDACTED, redactSecrets } from '../../src/mcp/redact.js'
import { type Started, startSandbox } from '../client/sandbox.js'
import { basic } from '../helpers.js'
import { afterEachTest } from '../teardown.js'
import { type Agent, overHttp } from './agent.js'
import { newApp, type TestApp, vendor } from './vendor.js'

// No tool, resource or prompt ever shows a masterSecret or a devSecret: every tool is called once
// (an app's own, then the operator's), and everything that came back — structured answers, texts,
// resources, the prompt, the raw HTTP answers — is searched for the app's secrets.

const MOBILE = '13800138000'

const started: Started[] = []
afterEachTest(async () => {
  await Promise.all(started.splice(0).map(s => s.close()))
})

/** Every tool of `agent`, called once with arguments that work; answers what each said. */
async function everyTool(agent: Agent, url: string, app: TestApp, scope: Record<string, string> = {}) {
  const said: string[] = []
  const called = new Set<string>()
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await agent.call(name, { ...scope, ...args })
    expect(r.isError, `${name}: ${r.text}`).toBe(false)
    called.add(name)
    said.push(r.text, JSON.stringify(r.structured))
    return r.structured
  }
  const device = await call('register_device', { platform: 'android', alias: 'secretcheck' })
  const pushed = await vendor(url, app, 'POST', '/v3/push', {
    platform: 'all',
    audience: { registration_id: [device.registration_id] },
    notification: { alert: 'hello' },
  })
  await call('wait_for_push', { registration_id: device.registration_id })
  await call('list_pushes')
  await call('click_push', { msg_id: pushed.body.msg_id, registration_id: device.registration_id })
  await call('list_devices')
  await vendor(url, app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
  await call('latest_code', { mobile: MOBILE })
  await call('wait_for_text', { mobile: MOBILE })
  await call('list_texts')
  await call('inject_reply', { mobile: MOBILE, content: 'hello' })
  const template = await vendor(url, app, 'POST', '/v1/templates', {
    template: '取件码{{code}}',
    type: 1,
    ttl: 60,
  })
  await call('review_template', { temp_id: template.body.temp_id, decision: 'reject', refuse_reason: 'no' })
  await call('review_sign', { sign_id: 1, decision: 'approve' })
  await call('wait_for_request', { path: '/v1/codes' })
  await call('explain_request', { limit: 20 })
  await call('advance_clock', { ms: 60_000 })
  await call('arm_fault', { path: '/v1/codes', code: 50019 })
  await call('clear_faults')
  await call('app_settings')
  await call('app_settings', { change: { developer: { frozen: false }, balances: { industry: 50 } } })
  const { document } = await call('export_app')
  await call('import_app', { document })
  await call('ui_link')
  await call('reset_app')
  const tools = (await agent.client.listTools()).tools.map(t => t.name)
  if (tools.includes('list_apps')) await call('list_apps')
  expect([...called].sort()).toEqual([...tools].sort())
  // The resources and the prompt.
  for (const { uri } of (await agent.client.listResources()).resources)
    for (const c of (await agent.client.readResource({ uri })).contents) said.push('text' in c ? c.text : '')
  const prompt = await agent.client.getPrompt({ name: 'debug_failing_test', arguments: scope })
  said.push(JSON.stringify(prompt))
  return said
}

describe('no secret in any output', () => {
  it('of any tool, resource or prompt, as the app or as the operator', { timeout: 60_000 }, async () => {
    const s = await startSandbox()
    started.push(s)
    const app = newApp('mcpsecret')
    // The app's developer secret, as only its own GET /_sandbox/app shows it.
    const { body } = await vendor(s.url, app, 'GET', '/_sandbox/app')
    const secrets = [app.masterSecret, body.developer.dev_secret as string]
    expect(secrets[1]).toMatch(/^[A-Za-z0-9]{24}$/)
    const raw: string[] = []
    // Every answer as it came over the wire, too.
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      raw.push(await res.clone().text())
      return res
    }
    const asApp = await overHttp(s.url, app.authorization, {}, recording)
    const said = await everyTool(asApp, s.url, app)
    const asOperator = await overHttp(s.url, basic('operator', 'operator'), {}, recording)
    said.push(...(await everyTool(asOperator, s.url, app, { app_key: app.appKey })))
    expect(said.length).toBeGreaterThan(100)
    expect(raw.length).toBeGreaterThan(50)
    for (const secret of secrets)
      for (const text of [...said, ...raw])
        expect(text.includes(secret), `${secret} in ${text.slice(0, 200)}`).toBe(false)
  })
})

describe('redactSecrets', () => {
  it('redacts a secret’s value under any key naming one, in objects and in JSON held as text', () => {
    const data = JSON.stringify({ developer: { dev_key: 'k', dev_secret: 'S3' }, n: 1 })
    const answer = {
      document: { tables: { events: [{ type: 'app.changed', data }] } },
      masterSecret: 'S1',
      ok: 'S2',
    }
    expect(redactSecrets(answer)).toEqual({
      document: {
        tables: {
          events: [
            {
              type: 'app.changed',
              data: JSON.stringify({ developer: { dev_key: 'k', dev_secret: REDACTED }, n: 1 }),
            },
          ],
        },
      },
      masterSecret: REDACTED,
      ok: 'S2',
    })
    // Nothing to redact: the very same value, text left as it was written.
    const plain = { a: ['{ "x" : 1 }', 2], b: 'secret word in prose' }
    expect(redactSecrets(plain)).toBe(plain)
  })
})

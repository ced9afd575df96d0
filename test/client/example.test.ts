// The manual's Node example (docs/testing.md, "Node: vitest") runs here as written: the code
// between the markers is that page's ```ts block, but for the client's import path. Below them,
// the suite's side: a sandbox for it (the example reads its address from SANDBOX), and the check
// that the page shows this code.

// docs/testing.md: begin
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type SandboxClient } from '../../client/src/index.js'

// Stands for the application under test: it texts a verification code through JSMS.
async function signUp(sb: SandboxClient, mobile: string): Promise<Response> {
  return fetch(`${sb.baseUrl}/v1/codes`, {
    method: 'POST',
    headers: { authorization: sb.authorization },
    body: JSON.stringify({ mobile, temp_id: 1 }),
  })
}

// Each test gets an app of its own (a new random appKey), so tests may run in parallel.
let sb: SandboxClient
beforeEach(async () => {
  sb = await createApp({ baseUrl: process.env.SANDBOX ?? 'http://127.0.0.1:8080' })
})

describe('sign-up by SMS', () => {
  it('texts a code that verifies once', async () => {
    await signUp(sb, '13800138000')
    const sms = await sb.nextMessage({ mobile: '13800138000', kind: 'code' })
    expect(sms.content).toContain(sms.code)
    const verify = () =>
      fetch(`${sb.baseUrl}/v1/codes/${sms.msg_id}/valid`, {
        method: 'POST',
        headers: { authorization: sb.authorization },
        body: JSON.stringify({ code: sms.code }),
      }).then(res => res.json())
    expect(await verify()).toEqual({ is_valid: true })
    expect((await verify()).error.code).toBe(50012) // verified code
  })

  it('a code expires with the clock, not with real time', async () => {
    await signUp(sb, '13800138000')
    const code = await sb.latestCode('13800138000', { wait: 5000 })
    await sb.advanceClock(5 * 60_000 + 1) // template 1: valid for 300 s
    const res = await fetch(`${sb.baseUrl}/v1/codes/${code.msg_id}/valid`, {
      method: 'POST',
      headers: { authorization: sb.authorization },
      body: JSON.stringify({ code: code.code }),
    })
    expect((await res.json()).error.code).toBe(50011) // expired code
  })

  it('survives the SMS service failing once', async () => {
    await sb.faults.arm({ path: '/v1/codes', code: 50019 }) // the next /v1/codes answers 500
    expect((await signUp(sb, '13800138000')).status).toBe(500)
    expect((await signUp(sb, '13800138000')).status).toBe(200)
    expect((await sb.messages({ mobile: '13800138000' })).messages).toHaveLength(1)
  })

  it('sees each SMS as an event', async () => {
    const events = await sb.events({ kind: 'sms.sent' })
    await signUp(sb, '13900139000')
    for await (const event of events) {
      expect(event).toMatchObject({ type: 'sms.sent', data: { mobile: '13900139000' } })
      break // leaving the loop closes the stream
    }
  })
})
// docs/testing.md: end

const { sandboxInEnv } = await import('./sandbox.js')
sandboxInEnv()

describe('docs/testing.md', () => {
  it('shows this example as it runs here', async () => {
    const { readFileSync } = await import('node:fs')
    const page = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8')
    const shown = /^#+ Node: vitest[\s\S]*?```ts\n([\s\S]*?)```/m.exec(page)?.[1]
    const self = readFileSync(new URL(import.meta.url), 'utf8')
    const example = /\/\/ docs\/testing\.md: begin\n([\s\S]*?)\/\/ docs\/testing\.md: end\n/.exec(self)?.[1]
    expect(example).toBeDefined()
    expect(shown).toBe(example?.replace("'../../client/src/index.js'", "'jiguang-sandbox/client'"))
  })
})

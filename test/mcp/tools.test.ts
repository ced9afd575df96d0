import { describe, expect, it } from 'vitest'
import { TOOLS } from '../../src/mcp/tools/index.js'
import { startSandbox } from '../client/sandbox.js'
import { basic, defaultAuth } from '../helpers.js'
import { afterEachTest } from '../teardown.js'
import { type Agent, overHttp, overStdio } from './agent.js'

// The tools as an MCP client lists them, over both transports: named for what a test author
// wants, each with a one-line description saying when to use it, a JSON schema for its arguments
// and one for its answer; the operator's list_apps for the operator only.

const APP_TOOLS = [
  'latest_code',
  'list_texts',
  'list_pushes',
  'list_devices',
  'wait_for_text',
  'wait_for_push',
  'wait_for_request',
  'explain_request',
  'advance_clock',
  'arm_fault',
  'clear_faults',
  'inject_reply',
  'click_push',
  'review_template',
  'review_sign',
  'register_device',
  'reset_app',
  'export_app',
  'import_app',
  'app_settings',
  'ui_link',
]

type Listed = Awaited<ReturnType<Agent['client']['listTools']>>['tools'][number]
type Schema = {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  maximum?: number
  enum?: unknown[]
}

const closing: Array<() => Promise<void>> = []
afterEachTest(async () => {
  await Promise.all(closing.splice(0).map(c => c()))
})

async function listedOverHttp(authorization: string): Promise<Listed[]> {
  const s = await startSandbox()
  closing.push(s.close)
  const agent = await overHttp(s.url, authorization)
  return (await agent.client.listTools()).tools
}

function checkSchemas(tools: Listed[]): void {
  for (const t of tools) {
    // One line: what it answers, then when to use it.
    expect(t.description, t.name).toMatch(/^[^\n]{20,}: use it [^\n]+$/)
    expect(t.description!.length, t.name).toBeLessThan(300)
    expect(t.title, t.name).toBeTruthy()
    expect(t.inputSchema.type, t.name).toBe('object')
    const output = t.outputSchema as Schema | undefined
    expect(output?.type, t.name).toBe('object')
    expect(Object.keys(output?.properties ?? {}).length, t.name).toBeGreaterThan(0)
    expect(t.annotations?.openWorldHint, t.name).toBe(false)
    // No tool takes or answers a secret.
    expect(JSON.stringify([t.inputSchema, t.outputSchema]), t.name).not.toMatch(/secret/i)
  }
  const byName = new Map(tools.map(t => [t.name, t]))
  const input = (name: string) => byName.get(name)!.inputSchema as Schema
  const output = (name: string) => byName.get(name)!.outputSchema as Schema
  expect(input('latest_code').required).toEqual(['mobile'])
  expect(Object.keys(output('latest_code').properties!).sort()).toEqual(
    ['code', 'created_at', 'expires_at', 'kind', 'mobile', 'msg_id', 'seq', 'verified'].sort(),
  )
  for (const wait of ['wait_for_text', 'wait_for_push', 'wait_for_request']) {
    expect(input(wait).properties!.timeout_ms!.maximum, wait).toBe(30_000)
    expect(Object.keys(output(wait).properties!).sort(), wait).toEqual([
      'arrived',
      'found',
      'next_after',
      'waited_ms',
    ])
  }
  const entry = (output('explain_request').properties!.requests as { items: Schema }).items
  expect(Object.keys(entry.properties!)).toEqual(
    expect.arrayContaining(['status', 'code', 'reason', 'request_body', 'answer_body']),
  )
  expect(input('review_template').properties!.decision!.enum).toEqual(['approve', 'reject'])
  expect(input('register_device').required).toEqual(['platform'])
  expect(input('click_push').required?.sort()).toEqual(['msg_id', 'registration_id'])
  expect(Object.keys(output('app_settings').properties!.developer!.properties!).sort()).toEqual([
    'balances',
    'dev_key',
    'frozen',
  ])
  for (const read of [
    'latest_code',
    'list_texts',
    'list_pushes',
    'list_devices',
    'explain_request',
    'export_app',
  ])
    expect(byName.get(read)!.annotations?.readOnlyHint, read).toBe(true)
  for (const destructive of ['reset_app', 'import_app', 'clear_faults'])
    expect(byName.get(destructive)!.annotations?.destructiveHint, destructive).toBe(true)
}

describe('the tools, as an MCP client lists them', () => {
  it('over /_sandbox/mcp with an app’s credentials: every tool but the operator’s', async () => {
    const tools = await listedOverHttp(defaultAuth)
    expect(tools.map(t => t.name)).toEqual(APP_TOOLS)
    checkSchemas(tools)
  })

  it('with the operator’s, list_apps too; over stdio (--embedded) the same tools and schemas', {
    timeout: 30_000,
  }, async () => {
    const overHttpAsOperator = await listedOverHttp(basic('operator', 'operator'))
    expect(overHttpAsOperator.map(t => t.name)).toEqual([...APP_TOOLS, 'list_apps'])
    checkSchemas(overHttpAsOperator)
    const stdio = await overStdio(['--embedded', '--port', '0'])
    const overStdioTools = (await stdio.client.listTools()).tools
    expect(overStdioTools).toEqual(overHttpAsOperator)
  })

  it('are the server’s table, one name each', () => {
    const names = TOOLS.map(t => t.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual([...APP_TOOLS, 'list_apps'])
  })
})

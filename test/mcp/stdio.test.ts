import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { serverBuild } from '../server-build.js'
import { afterEachTest } from '../teardown.js'
import { overStdio } from './agent.js'
import { vendor } from './vendor.js'

// `jiguang-sandbox mcp` as an agent runs it: a child process of the bundle the package ships,
// speaking JSON-RPC on stdin and stdout and nothing else there, ending cleanly when stdin closes;
// with --embedded a sandbox of its own that the code under test reaches on its port; a mistake on
// the command line is one line and exit 2.

const DEFAULT_APP = { authorization: `Basic ${btoa('7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1')}` }

const children: ChildProcessWithoutNullStreams[] = []
afterEachTest(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

function mcp(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [serverBuild().server, 'mcp', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString()
  })
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString()
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
  /** The answer to request `id`, once stdout has it. */
  const answer = async (id: number) => {
    for (;;) {
      const line = stdout
        .split('\n')
        .filter(Boolean)
        .map(l => JSON.parse(l) as { id?: number; result?: Record<string, unknown>; error?: unknown })
        .find(m => m.id === id)
      if (line) return line
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve())
        child.once('exit', () => reject(new Error(`exited before answering ${id}: ${stderr}`)))
      })
    }
  }
  return { child, send, answer, exited, stdout: () => stdout, stderr: () => stderr }
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
}

describe('jiguang-sandbox mcp --embedded', () => {
  it('answers on stdout in JSON-RPC only, logs on stderr, and exits 0 when stdin closes', async () => {
    const p = mcp(['--embedded', '--port', '0'], { LOG_LEVEL: 'info' })
    p.send(initialize)
    const init = await p.answer(1)
    expect(init.result).toMatchObject({
      serverInfo: { name: 'jiguang-sandbox' },
      capabilities: { tools: {} },
    })
    expect(init.result?.instructions).toMatch(/at http:\/\/127\.0\.0\.1:\d+ /)
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    const listed = await p.answer(2)
    expect(listed.result).toMatchObject({ tools: expect.any(Array) })
    expect((listed.result!.tools as unknown[]).length).toBe(22)
    p.child.stdin.end()
    expect(await p.exited).toEqual({ code: 0, signal: null })
    // stdout carried the protocol alone; the sandbox's log went to stderr.
    for (const line of p.stdout().split('\n').filter(Boolean)) expect(JSON.parse(line).jsonrpc).toBe('2.0')
    expect(p.stderr()).toContain('(embedded in the MCP server) listening on http://127.0.0.1:')
  })

  it('is a sandbox the code under test reaches on its port; the tools see every app of it', async () => {
    const agent = await overStdio(['--embedded', '--port', '0'])
    const url = /at (http:\/\/127\.0\.0\.1:\d+) /.exec(agent.client.getInstructions() ?? '')![1]!
    const sent = await vendor(url, DEFAULT_APP, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    // The operator's credentials, on the default app unless a call names another.
    expect((await agent.call('latest_code', { mobile: '13800138000' })).structured.msg_id).toBe(
      sent.body.msg_id,
    )
    const other = { authorization: `Basic ${btoa('embeddedapp0000000000001:embeddedsecret0000000001')}` }
    const otherSent = await vendor(url, other, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    const code = await agent.call('latest_code', {
      app_key: 'embeddedapp0000000000001',
      mobile: '13800138000',
    })
    expect(code.structured.msg_id).toBe(otherSent.body.msg_id)
    const apps = await agent.call('list_apps')
    expect(apps.structured.apps.map((a: { app_key: string }) => a.app_key)).toContain(
      'embeddedapp0000000000001',
    )
    // The manual and llms.txt, shipped beside the bundle.
    const llms = await agent.client.readResource({ uri: 'jiguang-sandbox://llms.txt' })
    expect((llms.contents[0] as { text: string }).text).toMatch(/^# jiguang-sandbox\n/)
    expect((await fetch(`${url}/llms.txt`)).status).toBe(200)
  })
})

describe('jiguang-sandbox mcp, the command line', () => {
  it.each([
    [
      ['--port', '8080'],
      'jiguang-sandbox mcp: --port: a setting of the sandbox, which only --embedded starts',
    ],
    [['--bogus'], 'jiguang-sandbox: unknown flag --bogus (see mcp --help)'],
    [['--master-secret', 'abc'], 'jiguang-sandbox mcp: --master-secret needs --app-key'],
    [
      ['--app-key', 'abc'],
      'jiguang-sandbox mcp: --app-key needs --master-secret (its credentials), or --operator (the app of a call that names none)',
    ],
    [['--url', 'ftp://x'], 'jiguang-sandbox mcp: invalid configuration: --url: Invalid URL'],
    [
      ['--embedded', '--url', 'http://127.0.0.1:1'],
      'jiguang-sandbox mcp: --url: not with --embedded, which starts its own sandbox',
    ],
    [
      ['--embedded', '--tls-port', '8443'],
      'jiguang-sandbox mcp: TLS_PORT: not with mcp --embedded; start the sandbox on its own (jiguang-sandbox), then jiguang-sandbox mcp --url',
    ],
  ])('mcp %j: one line, exit 2', async (args, line) => {
    const p = mcp(args)
    expect(await p.exited).toEqual({ code: 2, signal: null })
    expect(p.stderr()).toBe(`${line}\n`)
    expect(p.stdout()).toBe('')
  })

  it('mcp --help lists its flags with their variables, exit 0', async () => {
    const p = mcp(['--help'])
    expect(await p.exited).toEqual({ code: 0, signal: null })
    for (const word of [
      '--url',
      'SANDBOX_URL',
      '--[no-]embedded',
      '--app-key',
      '--master-secret',
      '--operator',
    ])
      expect(p.stdout()).toContain(word)
  })

  it('a sandbox that does not answer: the tool says so, the server goes on', async () => {
    const port = await new Promise<number>(resolve => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const agent = await overStdio(['--url', `http://127.0.0.1:${port}`])
    for (let i = 0; i < 2; i++) {
      const answer = await agent.call('list_texts')
      expect(answer.isError).toBe(true)
      expect(answer.text).toMatch(/^could not reach the sandbox \(ECONNREFUSED\): is it running\?/)
    }
  })
})

import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TOOLS } from '../../src/mcp/tools/index.js'
import { type Started, startSandbox } from '../client/sandbox.js'
import { createTestApp, defaultAuth } from '../helpers.js'
import { afterEachTest } from '../teardown.js'
import { overHttp } from './agent.js'

// What agents read first: /llms.txt (the repository's llms.txt, served as it is, no credentials),
// and, through the MCP server, the same file, every page of the manual and the OpenAPI document.

const REPO = new URL('../../', import.meta.url)
const LLMS = readFileSync(new URL('llms.txt', REPO), 'utf8')

const started: Started[] = []
afterEachTest(async () => {
  await Promise.all(started.splice(0).map(s => s.close()))
})

describe('/llms.txt', () => {
  it('is the repository’s llms.txt, as text, without credentials', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({ method: 'GET', url: '/llms.txt' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.body).toBe(LLMS)
    expect((await app.inject({ method: 'HEAD', url: '/llms.txt' })).statusCode).toBe(200)
    // In the OpenAPI document, like every route.
    const doc = (await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json()
    expect(doc.paths['/llms.txt'].get.summary).toMatch(/llms\.txt/)
    expect(doc.paths['/_sandbox/mcp'].post.summary).toMatch(/MCP/)
  })

  it('follows the llms.txt shape and says what an agent needs first', () => {
    expect(LLMS).toMatch(/^# jiguang-sandbox\n\n> [^\n]+\n/)
    for (const needed of [
      'http://127.0.0.1:8080',
      '7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1',
      '/v1/',
      '/v3/',
      'GET /_sandbox/sms/codes/latest',
      'GET /_sandbox/requests',
      'POST /_sandbox/clock',
      'POST /_sandbox/faults',
      'POST /_sandbox/reset',
      'jiguang-sandbox mcp --url',
      'jiguang-sandbox mcp --embedded',
      '/_sandbox/mcp',
    ])
      expect(LLMS, needed).toContain(needed)
    for (const t of TOOLS) expect(LLMS, t.name).toContain(`\`${t.name}\``)
    // Its links to the manual name pages that exist.
    const pages = [
      ...LLMS.matchAll(
        /\]\(https:\/\/github\.com\/jiguang-sandbox\/jiguang-sandbox\/blob\/main\/([^)#]+)\)/g,
      ),
    ]
    expect(pages.length).toBeGreaterThan(8)
    for (const [, path] of pages) expect(existsSync(new URL(path!, REPO)), path).toBe(true)
  })
})

describe('the MCP server’s resources', () => {
  it('are llms.txt, every page of the manual and the OpenAPI document', async () => {
    const s = await startSandbox()
    started.push(s)
    const agent = await overHttp(s.url, defaultAuth)
    const { resources } = await agent.client.listResources()
    const uris = resources.map(r => r.uri)
    expect(uris).toContain('jiguang-sandbox://llms.txt')
    expect(uris).toContain('jiguang-sandbox://README.md')
    expect(uris).toContain('jiguang-sandbox://docs/agents.md')
    expect(uris).toContain('jiguang-sandbox://docs/control-plane.md')
    expect(uris).toContain('jiguang-sandbox://openapi.json')
    const read = async (uri: string) => {
      const [content] = (await agent.client.readResource({ uri })).contents
      return content as { text: string; mimeType: string }
    }
    expect((await read('jiguang-sandbox://llms.txt')).text).toBe(LLMS)
    const page = await read('jiguang-sandbox://docs/control-plane.md')
    expect(page).toMatchObject({ mimeType: 'text/markdown' })
    expect(page.text).toBe(readFileSync(new URL('docs/control-plane.md', REPO), 'utf8'))
    expect(resources.find(r => r.uri === 'jiguang-sandbox://docs/control-plane.md')?.title).toBe(
      'The control plane: `/_sandbox`',
    )
    const openapi = JSON.parse((await read('jiguang-sandbox://openapi.json')).text)
    expect(openapi.openapi).toBe('3.1.0')
    expect(openapi.paths['/_sandbox/sms/codes/latest']).toBeDefined()
  })

  it('with the prompt that walks a failing test: the refusal and its reason, the faults, the texts', async () => {
    const s = await startSandbox()
    started.push(s)
    const agent = await overHttp(s.url, defaultAuth)
    await fetch(`${s.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: defaultAuth },
      body: JSON.stringify({ mobile: '13800138000', temp_id: 5, temp_para: { name: 'x' } }),
    })
    await agent.call('arm_fault', { path: '/v3/push', code: 1030 })
    const { prompts } = await agent.client.listPrompts()
    expect(prompts.map(p => p.name)).toEqual(['debug_failing_test'])
    const prompt = await agent.client.getPrompt({
      name: 'debug_failing_test',
      arguments: { mobile: '13800138000', failure: 'expected 200, got 403' },
    })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain('is failing: expected 200, got 403')
    expect(text).toMatch(/POST \/v1\/messages → 403 50021[^\n]*\nreason: template 5 was rejected in review/)
    expect(text).toMatch(/## Armed faults\n\{"id":\d+,[^\n]*"path":"\/v3\/push"[^\n]*"code":1030/)
    expect(text).toContain('## Latest texts to 13800138000\nnone')
    for (const tool of ['explain_request', 'clear_faults', 'list_texts', 'advance_clock'])
      expect(text).toContain(tool)
  })
})

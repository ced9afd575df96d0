// `npm run build && npx tsx bench/mcp-start.ts`: how soon `jiguang-sandbox mcp --embedded` serves an
// agent (docs/agents.md "How fast it starts"): process spawn to its answer to `initialize`, then
// to `tools/list`, then, once stdin closes (the agent quits), to the process's exit; STARTS times
// (9), taking turns with the sandbox's own start (spawn to its first 200, a fresh database, no
// seed file: bench/start-ratio.ts), so that both see the same machine.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { median } from './load.js'
import { createWorkspace, startProduct } from './product.js'
import { timeToFirstOk } from './start.js'

const STARTS = Number(process.env.STARTS ?? 9)
const SERVER = process.env.BENCH_SERVER ?? 'dist/server.js'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
}

/** One start of `mcp --embedded`: ms from spawn to each answer, and to the exit. */
function mcpStart(): Promise<{ initialize: number; tools: number; exit: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [SERVER, 'mcp', '--embedded', '--port', '0'], {
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const at: Record<string, number> = {}
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      for (const line of out.split('\n').slice(0, -1)) {
        const { id } = JSON.parse(line) as { id?: number }
        if (id === 1 && at.initialize === undefined) {
          at.initialize = performance.now() - started
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`)
        }
        if (id === 2 && at.tools === undefined) {
          at.tools = performance.now() - started
          child.stdin.end()
        }
      }
    })
    child.once('exit', code => {
      if (code !== 0 || at.tools === undefined) return reject(new Error(`mcp exited ${code}`))
      resolve({ initialize: at.initialize!, tools: at.tools, exit: performance.now() - started })
    })
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
  })
}

const ws = createWorkspace()
const figures: Record<string, number[]> = {
  'sandbox: first 200': [],
  'mcp --embedded: initialize answered': [],
  'mcp --embedded: tools/list answered': [],
  'mcp --embedded: exited, stdin closed': [],
}
for (let i = 0; i < STARTS; i++) {
  const start = (port: number) =>
    startProduct(ws, { port, logName: `p-${i}.log`, database: join(ws.dir, `fresh-${i}.db`), seed: false })
  figures['sandbox: first 200']!.push((await timeToFirstOk(start, '/v1/accounts/app', false)).ms)
  const m = await mcpStart()
  figures['mcp --embedded: initialize answered']!.push(m.initialize)
  figures['mcp --embedded: tools/list answered']!.push(m.tools)
  figures['mcp --embedded: exited, stdin closed']!.push(m.exit)
}
for (const [name, ms] of Object.entries(figures))
  console.log(
    `${name.padEnd(38)} median ${median(ms).toFixed(0).padStart(5)} ms  (${ms.map(v => v.toFixed(0)).join(', ')})`,
  )

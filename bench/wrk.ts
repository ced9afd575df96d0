import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoadOptions, RawRound } from './load-types.js'

// wrk: one thread (the other core is the server's), `connections` keep-alive connections. A Lua
// script sets the request; with a body template it makes each body (load.ts), and its done()
// prints the figures as one JSON line.

/** A Lua long string: no escaping to get wrong, whatever the text holds. */
const lua = (text: string) => {
  let level = '='
  while (text.includes(`]${level}]`)) level += '='
  return `[${level}[${text}]${level}]`
}

function script(o: LoadOptions): string {
  const headers = { 'content-type': 'application/json', ...o.headers }
  const table = `{ ${Object.entries(headers)
    .map(([k, v]) => `[ ${lua(k)} ] = ${lua(v)}`)
    .join(', ')} }`
  const method = o.method ?? 'GET'
  const lines: string[] = []
  if (typeof o.body === 'object') {
    lines.push(
      `local counter = ${o.body.start ?? 0}`,
      `local aliases = ${o.body.aliases ?? 1}`,
      `local template = ${lua(o.body.template)}`,
      `local headers = ${table}`,
      `local auths = { ${(o.authorizations ?? []).map(lua).join(', ')} }`,
      'local turn = 0',
      'local function mobile() counter = counter + 1; return string.format("13%09d", counter % 1000000000) end',
      'local function alias() counter = counter + 1; return "u" .. ((counter * 7919) % aliases) end',
      'request = function()',
      '  turn = turn + 1',
      '  if #auths > 0 then headers["authorization"] = auths[(turn % #auths) + 1] end',
      '  local body = template:gsub("{{mobile}}", mobile)',
      '  body = body:gsub("{{alias}}", alias)',
      `  return wrk.format(${lua(method)}, ${lua(o.path)}, headers, body)`,
      'end',
    )
  } else {
    // A fixed request: wrk formats it once.
    lines.push(`wrk.method = ${lua(method)}`, `wrk.path = ${lua(o.path)}`, `wrk.headers = ${table}`)
    if (o.body !== undefined) lines.push(`wrk.body = ${lua(o.body)}`)
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('BENCH {"requests":%d,"duration_us":%d,"status":%d,"errors":%d,"p50_us":%d,"p99_us":%d}\\n',`,
    '    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,',
    '    latency:percentile(50), latency:percentile(99)))',
    'end',
  )
  return lines.join('\n')
}

export async function runWrk(o: LoadOptions): Promise<RawRound> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'))
  const file = join(dir, 'round.lua')
  writeFileSync(file, script(o))
  try {
    const args = [
      '-t1',
      `-c${o.connections ?? 50}`,
      `-d${o.durationSeconds ?? 5}s`,
      '--timeout',
      '10s',
      '-s',
      file,
      o.url,
    ]
    const out = await run('wrk', args)
    const line = out.split('\n').find(l => l.startsWith('BENCH '))
    if (!line) throw new Error(`wrk printed no figures:\n${out}`)
    const r = JSON.parse(line.slice(6)) as Record<string, number>
    return {
      requests: r.requests!,
      seconds: r.duration_us! / 1e6,
      non2xx: r.status!,
      errors: r.errors!,
      p50: r.p50_us! / 1000,
      p99: r.p99_us! / 1000,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', chunk => {
      out += chunk
    })
    child.once('error', reject)
    child.once('exit', code =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}:\n${out}`)),
    )
  })
}

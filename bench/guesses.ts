// `npx tsx bench/guesses.ts`: how fast one client can guess the operator's password on a real
// process (docs/reliability.md "Hostile tenants: credentials, callbacks, the journal"). The built
// server (`npm run build` first; SERVER=<path of another build's dist/server.js> to compare) runs on
// loopback with DB_PATH=:memory:, and one client sends wrong operator passwords for DURATION_S
// seconds over CONCURRENCY keep-alive connections to PATH (default the web UI's operator sign-in,
// GET /_sandbox/apps?limit=1). Prints, per second: the answers, the guesses the sandbox checked
// (401: each tells the guesser that password is wrong) and the ones it refused unchecked (429).
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { Agent, request } from 'undici'

const SERVER = resolve(process.env.SERVER ?? 'dist/server.js')
const DURATION_S = Number(process.env.DURATION_S ?? 5)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8)
const PATH = process.env.PATH_GUESSED ?? '/_sandbox/apps?limit=1'

const child = spawn(process.execPath, [SERVER], {
  env: {
    ...process.env,
    PORT: '0',
    DB_PATH: ':memory:',
    LOG_LEVEL: 'warn',
    SANDBOX_OPERATOR: '',
    HOST: '127.0.0.1',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise<string>((done, fail) => {
  let out = ''
  child.stdout!.on('data', chunk => {
    out += chunk
    const found = /"url":"(http:\/\/[^"]+)"/.exec(out)?.[1]
    if (found) done(found)
  })
  child.once('exit', code => fail(new Error(`the server exited with ${code}`)))
})

const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 })
const counts = new Map<number, number>()
let n = 0
const end = performance.now() + DURATION_S * 1000
async function guesser(): Promise<void> {
  while (performance.now() < end) {
    const authorization = `Basic ${Buffer.from(`operator:guess${n++}`).toString('base64')}`
    const res = await request(`${url}${PATH}`, { dispatcher: agent, headers: { authorization } })
    await res.body.dump()
    counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1)
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: CONCURRENCY }, guesser))
const seconds = (performance.now() - started) / 1000
const per = (status: number) => Math.round((counts.get(status) ?? 0) / seconds)
const answered = [...counts.values()].reduce((a, b) => a + b, 0)
console.log(
  JSON.stringify({
    server: SERVER,
    path: PATH,
    seconds: Math.round(seconds * 10) / 10,
    answersPerSecond: Math.round(answered / seconds),
    checkedGuessesPerSecond: per(401),
    refusedUncheckedPerSecond: per(429),
    checkedGuesses: counts.get(401) ?? 0,
  }),
)
await agent.close()
child.kill('SIGTERM')

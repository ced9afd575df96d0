// npm run test:docker — the image and the compose file, end to end, on a real Docker engine.
// Creates its own containers, volume and compose project, and removes them whatever happens.
// Every command has a time limit; the image jiguang-sandbox:local is kept (it is the build's output).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { check, commandExists, sh, step, trySh, waitFor } from './sh.js'
import { httpCaller, httpsCaller, sendAndValidateCode } from './sms-flow.js'
import { testcontainersChecks } from './testcontainers.js'
import { webUiChecks } from './web-ui.js'

/** What the image serves agents: /llms.txt, and the MCP server's tools and resources at /_sandbox/mcp. */
async function agentChecks(base: string): Promise<Array<[boolean, string]>> {
  const llms = await fetch(`${base}/llms.txt`)
  const mcp = async (method: string, params: object = {}) => {
    const res = await fetch(`${base}/_sandbox/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa('7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await res.json()) as { result?: Record<string, unknown[]> }).result ?? {}
  }
  const tools = (await mcp('tools/list')).tools ?? []
  const page = (await mcp('resources/read', { uri: 'jiguang-sandbox://docs/agents.md' })).contents ?? []
  return [
    [llms.status === 200 && (await llms.text()).startsWith('# jiguang-sandbox\n'), 'GET /llms.txt'],
    [tools.length === 21, `POST /_sandbox/mcp lists ${tools.length} tools`],
    [page.length === 1, 'the manual as MCP resources (docs/agents.md)'],
  ]
}

const MINUTE = 60_000
// Testcontainers' reaper (Ryuk) is an image from a registry: the proof removes what it made itself.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true'
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const IMAGE = 'jiguang-sandbox:local'
const id = `jsbtest${process.pid}`
const volume = `${id}-data`
const cleanups: (() => void)[] = []

function cleanUp(): void {
  for (const f of cleanups.splice(0).reverse()) f()
}

interface Started {
  name: string
  http: string
  tlsPort: number
}

/** A container on the test volume, both ports published on random loopback ports. */
async function startContainer(n: number): Promise<Started> {
  const name = `${id}-${n}`
  const started = performance.now()
  cleanups.push(() => trySh('docker', ['rm', '-f', '-v', name]))
  sh('docker', [
    'run',
    '-d',
    '--name',
    name,
    '-v',
    `${volume}:/data`,
    '-p',
    '127.0.0.1::8080',
    '-p',
    '127.0.0.1::443',
    IMAGE,
  ])
  const port = (p: number) =>
    Number(
      sh('docker', ['port', name, `${p}/tcp`])
        .split('\n')[0]
        ?.split(':')
        .pop(),
    )
  const container = { name, http: `http://127.0.0.1:${port(8080)}`, tlsPort: port(443) }
  await waitFor(`${name} health`, async () =>
    (await get(`${container.http}/_sandbox/health`)).ok ? true : undefined,
  )
  // A figure for docs/performance.md, not a check (the machine may be busy).
  await waitFor(`${name} healthy`, async () =>
    sh('docker', ['inspect', '-f', '{{.State.Health.Status}}', name]) === 'healthy' ? true : undefined,
  )
  console.log(`   docker run to healthy: ${((performance.now() - started) / 1000).toFixed(2)} s`)
  return container
}

// Each request has its own limit: until the server listens, Docker's port proxy may hold it.
function get(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(3_000) })
}

function compose(args: string[], env: NodeJS.ProcessEnv = {}): string {
  const files = ['-f', join(repo, 'docker-compose.yml'), '-f', join(repo, 'test/docker/compose.test.yml')]
  const [cmd, pre] = commandExists('docker-compose') ? ['docker-compose', []] : ['docker', ['compose']]
  return sh(cmd, [...pre, '-p', id, ...files, ...args], { timeoutMs: 5 * MINUTE, show: true, env })
}

async function main(): Promise<void> {
  step('Docker engine and the node:22-bookworm-slim base')
  const tool = process.env.DOCKER_LOCAL ?? join(repo, '..', 'shared', 'tools', 'docker-local')
  if (existsSync(tool)) sh(tool, ['22'], { timeoutMs: 20 * MINUTE, show: true })
  else if (!commandExists('docker', ['info']))
    throw new Error(`no Docker engine, and no ${tool} to provide one`)

  step(`docker build -t ${IMAGE}`)
  sh('docker', ['build', '-t', IMAGE, repo], { timeoutMs: 20 * MINUTE, show: true })
  const bytes = Number(sh('docker', ['image', 'inspect', '-f', '{{.Size}}', IMAGE]))
  console.log(`   image size ${(bytes / 1e6).toFixed(0)} MB`)
  const labels = JSON.parse(sh('docker', ['image', 'inspect', '-f', '{{json .Config.Labels}}', IMAGE]))
  const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }
  check(
    labels['org.opencontainers.image.version'] === version &&
      labels['org.opencontainers.image.licenses'] === 'MIT' &&
      /^https:\/\//.test(labels['org.opencontainers.image.source']),
    `OCI labels: version ${version} (package.json's), licence MIT, source`,
  )

  step('docker run: health, ready, a code over HTTP and over TLS as api.sms.jpush.cn, the web UI')
  sh('docker', ['volume', 'create', volume])
  cleanups.push(() => trySh('docker', ['volume', 'rm', '-f', volume]))
  const first = await startContainer(1)
  check(sh('docker', ['exec', first.name, 'id', '-u']) === '1000', 'runs as the non-root node user')
  const ready = await get(`${first.http}/_sandbox/ready`)
  check(ready.status === 200 && ((await ready.json()) as { status: string }).status === 'ready', 'ready')
  // Beyond loopback (the image's HOST=0.0.0.0) the operator is not operator:operator: the first
  // start generates a password, shows it once and keeps it on the volume.
  const generated =
    /operator operator:([A-Za-z0-9_-]{24}), generated for HOST 0\.0\.0\.0 and kept in \/data\/sandbox\.db-operator/.exec(
      sh('docker', ['logs', first.name]),
    )?.[1]
  check(generated !== undefined, 'the first start generated an operator password and said it once')
  const operatorAs = (password: string) => ({
    authorization: `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`,
  })
  const apps = (password: string) =>
    fetch(`${first.http}/_sandbox/apps`, {
      headers: operatorAs(password),
      signal: AbortSignal.timeout(3_000),
    })
  check(
    (await apps('operator')).status === 401 && (await apps(generated!)).status === 200,
    'operator:operator is refused, the generated password lists the apps',
  )
  const viaHttp = await sendAndValidateCode(httpCaller(first.http), '13800138000')
  check(viaHttp, `code sent and validated over HTTP (msg_id ${viaHttp})`)
  for (const [ok, what] of await webUiChecks(first.http)) check(ok, `web UI: ${what}`)
  for (const [ok, what] of await agentChecks(first.http)) check(ok, `for agents: ${what}`)
  const ca = await (await get(`${first.http}/_sandbox/ca.pem`)).text()
  const viaTls = await sendAndValidateCode(httpsCaller('api.sms.jpush.cn', first.tlsPort, ca), '13800138001')
  check(viaTls, `code sent and validated over TLS to https://api.sms.jpush.cn (msg_id ${viaTls})`)
  const untrusted = await httpsCaller(
    'api.sms.jpush.cn',
    first.tlsPort,
    '',
  )('GET', '/_sandbox/health').catch(e => e)
  check(untrusted instanceof Error, `a client without the CA is refused (${(untrusted as Error).message})`)
  const health = await waitFor('Docker HEALTHCHECK', async () => {
    const status = sh('docker', ['inspect', '-f', '{{.State.Health.Status}}', first.name])
    return status === 'healthy' ? status : undefined
  })
  check(health === 'healthy', 'the image HEALTHCHECK reports healthy')

  step('Testcontainers for Node: jiguang-sandbox-client/testcontainers against the image')
  for (const [ok, what] of await testcontainersChecks(IMAGE)) check(ok, what)

  step('docker stop, then a new container on the same volume')
  sh('docker', ['stop', '-t', '10', first.name], { timeoutMs: MINUTE })
  const exit = sh('docker', ['inspect', '-f', '{{.State.ExitCode}}', first.name])
  check(exit === '0', 'SIGTERM: graceful exit with status 0 (not killed)')
  const second = await startContainer(2)
  const seen = httpCaller(second.http)
  for (const msgId of [viaHttp, viaTls]) {
    const found = (await seen('GET', `/_sandbox/sms/messages?msg_id=${msgId}`)).json() as {
      messages: unknown[]
    }
    check(found.messages.length === 1, `msg_id ${msgId} is still there`)
  }
  const latest = (await seen('GET', '/_sandbox/sms/codes/latest?mobile=13800138001')).json() as {
    verified: boolean
  }
  check(latest.verified === true, 'the validated code is still validated')
  check((await (await get(`${second.http}/_sandbox/ca.pem`)).text()) === ca, 'the CA is unchanged')
  const secondLogs = sh('docker', ['logs', second.name])
  const kept = await fetch(`${second.http}/_sandbox/apps`, {
    headers: operatorAs(generated!),
    signal: AbortSignal.timeout(3_000),
  })
  check(
    kept.status === 200 &&
      !secondLogs.includes(generated!) &&
      secondLogs.includes('kept in /data/sandbox.db-operator'),
    'the operator password is kept on the volume, not shown again',
  )
  await sendAndValidateCode(httpsCaller('api.jpush.cn', second.tlsPort, ca), '13800138002')
  check(true, 'the old CA still verifies the new server certificate')
  sh('docker', ['stop', '-t', '10', second.name], { timeoutMs: MINUTE })

  step('docker-compose: the sandbox under the vendor hostnames, an application that trusts its CA')
  let composeUp = true
  cleanups.push(() => {
    if (!composeUp) return
    try {
      compose(['down', '-v', '--remove-orphans', '-t', '10'])
    } catch {
      // nothing to take down
    }
  })
  // Port 0: a free host port, so the test never collides with a sandbox already running.
  compose(['up', '-d', 'sandbox'], { SANDBOX_HTTP_PORT: '0' })
  compose(['run', '--rm', 'client'], { SANDBOX_HTTP_PORT: '0' })
  check(true, 'the client reached https://api.sms.jpush.cn and the JPush hosts unchanged')
  compose(['down', '-v', '--remove-orphans', '-t', '10'])
  composeUp = false
  check(true, 'docker-compose down -v')
}

const watchdog = setTimeout(() => {
  console.error('test:docker: overall time limit reached')
  cleanUp()
  process.exit(1)
}, 45 * MINUTE)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cleanUp()
    process.exit(130)
  })
}

main().then(
  () => {
    cleanUp()
    clearTimeout(watchdog)
    console.log('\ntest:docker: all checks passed')
  },
  err => {
    console.error(`\ntest:docker: FAILED: ${err instanceof Error ? err.message : String(err)}`)
    cleanUp()
    process.exit(1)
  },
)

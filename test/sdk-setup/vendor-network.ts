import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VENDOR_HOSTS } from '../../src/tls/server-cert.js'

// The TLS drop-in of docs/docker-and-tls.md as a test can give it to one process: a network of the
// process's own (a Linux network and mount namespace, as a container has) where the vendors'
// hostnames resolve to the sandbox through /etc/hosts, and port 443 reaches the sandbox's TLS
// listener. The process and what it loads are not changed in any way: it resolves api.jpush.cn,
// connects to port 443, checks the sandbox's certificate against the CA it was told to trust, and
// speaks to the sandbox, as the application container of the compose file does
// (docs/sdk-setup.md). Needs Linux namespaces: root, or unprivileged user namespaces.

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Inside the namespace: port 443 on the loopback is piped, byte for byte, into the Unix socket the
 * test listens on (a path on the shared file system crosses the network namespace), then the
 * command runs and its exit code is this one's. What Docker's port proxy does between networks.
 */
const BRIDGE = `
const net = require('node:net')
const { spawn } = require('node:child_process')
const [socketPath, command, ...args] = process.argv.slice(2)
const bridge = net.createServer(client => {
  const upstream = net.connect(socketPath)
  client.pipe(upstream).pipe(client)
  client.on('error', () => upstream.destroy())
  upstream.on('error', () => client.destroy())
})
bridge.listen(443, '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' })
  child.on('error', err => { console.error(String(err)); process.exit(127) })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)))
})
`

/**
 * Runs `command` in a network where the vendor hostnames are the sandbox whose TLS listener is on
 * 127.0.0.1:`tlsPort`. `env` is the command's whole environment (with PATH added).
 */
export async function runInVendorNetwork(
  command: string[],
  {
    tlsPort,
    env,
    cwd,
    timeoutMs = 120_000,
  }: { tlsPort: number; env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number },
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'vendor-network-'))
  const hosts = join(dir, 'hosts')
  const bridge = join(dir, 'bridge.cjs')
  const socketPath = join(dir, 'tls.sock')
  writeFileSync(hosts, `127.0.0.1 localhost\n::1 localhost\n127.0.0.1 ${VENDOR_HOSTS.join(' ')}\n`)
  writeFileSync(bridge, BRIDGE)
  const relay: Server = createServer(client => {
    const upstream = connect(tlsPort, '127.0.0.1')
    client.pipe(upstream).pipe(client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>(resolve => relay.listen(socketPath, resolve))
  // Root may make the namespaces; anyone else makes a user namespace first, in which it is root.
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user']
  const setUp = 'ip link set lo up && mount --bind "$0" /etc/hosts && exec "$@"'
  const argv = [...user, '--net', '--mount', '--fork', '--', 'sh', '-c', setUp, hosts]
  argv.push(process.execPath, bridge, socketPath, ...command)
  try {
    return await new Promise<Run>((resolve, reject) => {
      const child = spawn('unshare', argv, {
        cwd,
        env: { PATH: `${process.env.PATH}:/usr/sbin:/sbin`, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', chunk => {
        stdout += chunk
      })
      child.stderr.on('data', chunk => {
        stderr += chunk
      })
      child.on('error', reject)
      child.on('close', code => resolve({ code, stdout, stderr }))
    })
  } finally {
    relay.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

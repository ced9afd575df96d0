import type { Server as HttpServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createServer, type TLSSocket, type Server as TlsServer } from 'node:tls'
import type { HeldBound } from '../limits/held.js'
import type { TlsMaterial } from './index.js'

export interface TlsListener {
  readonly port: number
  /** Stops accepting; resolves once every TLS connection has ended. */
  close(): Promise<void>
  /** Last resort at shutdown: drops the connections still open. */
  destroyAll(): void
}

export interface TlsListenOptions {
  port: number
  host: string
  key: string
  cert: string
  onClientError?: (err: Error) => void
  /** Handshakes under way, bounded per client address and in total (limits/held.ts). */
  handshakes?: HeldBound
  /** Real time a handshake may take before its connection is closed (TLS_HANDSHAKE_TIMEOUT_MS). */
  handshakeTimeoutMs?: number
}

/**
 * HTTPS in front of the existing HTTP server: each TLS connection, once decrypted, is handed to
 * the same http.Server, so both listeners share routes, timeouts, its connection tracking
 * (Fastify's close ends idle TLS keep-alive connections like plain ones) and its bounds on
 * connections (http/socket/connections.ts).
 *
 * Before that, the handshake: a client that opens a connection and never finishes it holds a
 * descriptor and the TLS state. Handshakes under way are bounded per client address and in total
 * (`handshakes`): a connection over either is closed at once (no TLS yet, so no answer can be
 * understood), and every handshake must finish within `handshakeTimeoutMs` (Node's own default,
 * 120 s, let 600 stalled ones stay open for minutes). With every slot taken, a newcomer from an
 * address holding fewer closes the oldest handshake of the busiest address (limits/held.ts): four
 * addresses that stall 64 handshakes each no longer keep everybody else from TLS (issue 33).
 */
export async function listenTls(httpServer: HttpServer, options: TlsListenOptions): Promise<TlsListener> {
  const sockets = new Set<TLSSocket>()
  const { handshakes } = options
  const server: TlsServer = createServer(
    {
      key: options.key,
      cert: options.cert,
      ALPNProtocols: ['http/1.1'],
      handshakeTimeout: options.handshakeTimeoutMs ?? 10_000,
    },
    socket => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      httpServer.emit('connection', socket)
    },
  )
  // Before Node's own listener wraps the connection in a TLSSocket. Node's `handshakeTimeout`
  // counts only once the client has sent something: a connection that sends nothing at all would
  // stay open, so the sandbox keeps its own clock for every handshake.
  const timeoutMs = options.handshakeTimeoutMs ?? 10_000
  server.prependListener('connection', (raw: Socket) => {
    const client = raw.remoteAddress ?? 'unknown'
    let letGo: () => void = () => {}
    try {
      if (handshakes) letGo = handshakes.take(client, { evict: () => raw.destroy() })
    } catch {
      raw.destroy() // refused, and logged once a minute by the bound
      return
    }
    let pending = true
    const timer = setTimeout(() => raw.destroy(), timeoutMs).unref()
    const done = () => {
      if (!pending) return
      pending = false
      clearTimeout(timer)
      letGo()
    }
    raw.once('close', done)
    // The handshake's end: the TLS socket wrapping `raw` is secure ('secureConnection' below).
    ;(raw as HandshakeSocket)[HANDSHAKE_DONE] = done
  })
  server.on('secureConnection', (socket: TLSSocket) => {
    // Node keeps the wrapped connection as `_parent` (an internal, stable since Node 0.11; the
    // handshake test fails if it ever goes).
    const raw = (socket as unknown as { _parent?: Socket })._parent
    ;(raw as HandshakeSocket | undefined)?.[HANDSHAKE_DONE]?.()
  })
  // A client that does not trust the CA aborts the handshake: its problem, not a crash.
  server.on('tlsClientError', err => options.onClientError?.(err))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // A failed accept once listening: the HTTP server that takes these connections logs it
  // (http/socket/listener-errors.ts) instead of the process dying of an 'error' nobody heard.
  server.on('error', err => httpServer.emit('error', err))
  const closed = new Promise<void>(resolve => server.once('close', () => resolve()))
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      if (server.listening) server.close()
      return closed
    },
    destroyAll: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
}

const HANDSHAKE_DONE = Symbol('handshake done')
type HandshakeSocket = Socket & { [HANDSHAKE_DONE]?: () => void }

/**
 * The app's HTTPS listener: its vendor-hostname certificate in front of its HTTP server, drained
 * by the graceful close like the plain connections. Shared by the process and the tests.
 */
export async function listenAppTls(
  app: { server: HttpServer; tls: TlsMaterial; held: { tlsHandshakes: HeldBound } },
  graceful: { attachTls(listener: TlsListener): void },
  options: Pick<TlsListenOptions, 'port' | 'host' | 'onClientError' | 'handshakeTimeoutMs'>,
): Promise<{ listener: TlsListener; names: readonly string[] }> {
  const cert = app.tls.serverCert()
  const listener = await listenTls(app.server, {
    ...options,
    key: cert.keyPem,
    cert: cert.certPem,
    handshakes: app.held.tlsHandshakes,
  })
  graceful.attachTls(listener)
  return { listener, names: cert.names }
}

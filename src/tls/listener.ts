import type { Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServer, type TLSSocket, type Server as TlsServer } from 'node:tls'
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
}

/**
 * HTTPS in front of the existing HTTP server: each TLS connection, once decrypted, is handed to
 * the same http.Server, so both listeners share routes, timeouts and its connection tracking
 * (Fastify's close ends idle TLS keep-alive connections like plain ones).
 */
export async function listenTls(httpServer: HttpServer, options: TlsListenOptions): Promise<TlsListener> {
  const sockets = new Set<TLSSocket>()
  const server: TlsServer = createServer(
    { key: options.key, cert: options.cert, ALPNProtocols: ['http/1.1'] },
    socket => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      httpServer.emit('connection', socket)
    },
  )
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
  // (http/listener-errors.ts) instead of the process dying of an 'error' nobody heard.
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

/**
 * The app's HTTPS listener: its vendor-hostname certificate in front of its HTTP server, drained
 * by the graceful close like the plain connections. Shared by the process and the tests.
 */
export async function listenAppTls(
  app: { server: HttpServer; tls: TlsMaterial },
  graceful: { attachTls(listener: TlsListener): void },
  options: Pick<TlsListenOptions, 'port' | 'host' | 'onClientError'>,
): Promise<{ listener: TlsListener; names: readonly string[] }> {
  const cert = app.tls.serverCert()
  const listener = await listenTls(app.server, { ...options, key: cert.keyPem, cert: cert.certPem })
  graceful.attachTls(listener)
  return { listener, names: cert.names }
}

import type { Server } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'

/**
 * A listening server emits 'error' when accepting one connection fails (ENFILE, ENOMEM, EPERM from
 * a firewall rule…; libuv absorbs EMFILE itself). Once Fastify's listen() has resolved nobody
 * listens for it, and an 'error' nobody hears ends the process: every tenant would lose the
 * sandbox over one connection it never had. The listener stays open; the failure is logged.
 * The TLS listener forwards its own accept errors here (tls/listener.ts).
 */
export function logListenerErrors(server: Server, log: FastifyBaseLogger): void {
  server.on('error', err => {
    // Before listening it is a failed listen(): Fastify's own listener rejects listen() with it.
    if (server.listening) log.error({ err }, 'accepting a connection failed; still listening')
  })
}

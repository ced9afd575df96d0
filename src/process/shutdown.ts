import type { FastifyInstance } from 'fastify'
import type { TlsListener } from '../tls/listener.js'

export interface GracefulClose {
  /** The TLS listener, once it listens: closed with the app, drained before the database closes. */
  attachTls(listener: TlsListener): void
  /** Stop accepting, let requests in flight finish, then app.close(). Safe to call twice. */
  close(): Promise<void>
}

/**
 * Call before listen (it adds a hook). Both listeners stop accepting; every request already
 * received gets its real answer and one that arrives on an open keep-alive connection is refused
 * (src/http/socket/drain.ts, wired by buildApp). After `graceMs`, whatever is still open is dropped so
 * the process can exit.
 */
export function prepareGracefulClose(app: FastifyInstance, { graceMs = 3_000 } = {}): GracefulClose {
  let tls: TlsListener | undefined
  let done: Promise<void> | undefined

  // onClose hooks run after the HTTP server has closed and in reverse order of registration:
  // this one, added after buildApp's, runs before the database closes.
  app.addHook('onClose', async () => {
    await tls?.close()
  })

  return {
    attachTls: listener => {
      tls = listener
    },
    close: () => {
      done ??= (async () => {
        app.beginDrain()
        // Plain and TLS connections alike: TLS connections are handed to the same http.Server.
        const closingTls = tls?.close()
        const grace = setTimeout(() => {
          app.server.closeAllConnections()
          tls?.destroyAll()
        }, graceMs)
        grace.unref()
        try {
          await Promise.all([app.close(), closingTls])
        } finally {
          clearTimeout(grace)
        }
      })()
      return done
    },
  }
}

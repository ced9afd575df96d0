import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { TlsListener } from './tls/listener.js'

export interface GracefulClose {
  /** The TLS listener, once it listens: closed with the app, drained before the database closes. */
  attachTls(listener: TlsListener): void
  /** Stop accepting, let requests in flight finish, then app.close(). Safe to call twice. */
  close(): Promise<void>
}

/**
 * Call before listen (it adds a hook). Node's http.Server keeps a keep-alive connection open
 * after `close()` if a request was in flight (Fastify 5 on Node 20/22 does the same), so every
 * answer sent once closing has begun carries `Connection: close`; after `graceMs`, whatever is
 * still open is dropped so the process can exit.
 */
export function prepareGracefulClose(app: FastifyInstance, { graceMs = 3_000 } = {}): GracefulClose {
  const inFlight = new Set<ServerResponse>()
  let closing = false
  let tls: TlsListener | undefined
  let done: Promise<void> | undefined

  // Plain and TLS requests alike: TLS connections are handed to this same http.Server.
  app.server.on('request', (_req, res: ServerResponse) => {
    if (closing) res.setHeader('connection', 'close')
    inFlight.add(res)
    res.once('close', () => inFlight.delete(res))
  })
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
        closing = true
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
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

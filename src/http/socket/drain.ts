import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { ConnectionTracker } from './connections.js'

/** A request that arrived once the close had begun: each surface answers its server error as 503. */
export class ShuttingDown extends Error {
  constructor() {
    super('service unavailable: the sandbox is shutting down')
    this.name = 'ShuttingDown'
  }
}

/**
 * The close, connection by connection (wired by buildApp, before the surfaces, so that every
 * route and not-found handler inherits the hooks; Fastify's own 503 is turned off there), over the
 * connections as connections.ts tracks them.
 *
 * HTTP/1.1 answers leave a keep-alive connection in the order its requests came (a client may
 * pipeline), and Node ends the connection after an answer that carries `Connection: close`,
 * dropping the answers queued behind it — answers whose writes may already be committed. So from
 * the start of the close:
 * - a request that was already received runs to its real answer;
 * - a request that arrives on an open connection is refused before its handler (nothing runs,
 *   nothing is stored) in the envelope of its surface (error-handler.ts), HTTP 503;
 * - an answer waits for its turn on its connection, then carries `Connection: close` only if no
 *   request is queued behind it; a connection left idle is ended;
 * - a connection that has not sent a byte yet (a client's pool opens them ahead) is ended at once:
 *   Node's own close waits for it, so it would hold the close for the whole grace period.
 */
export function useDrain(app: FastifyInstance, connections: ConnectionTracker): void {
  let draining = false

  // An answer sent keep-alive before the close began was the last: nobody ends it otherwise.
  connections.onAnswered((socket, owed) => {
    if (draining && owed === 0) socket.end()
  })

  const begin = () => {
    draining = true
    // Never a request and no byte read: nothing is arriving. (Bytes read but no request yet: one
    // is arriving; the request is answered 503.)
    for (const socket of connections.open)
      if (connections.owed(socket) === undefined && socket.bytesRead === 0) socket.end()
  }
  app.decorate('beginDrain', begin)
  app.addHook('preClose', async () => begin())
  // Refused first, before any bound or back-pressure of the connections' own (connections.ts).
  connections.refuseEvery(() => (draining ? new ShuttingDown() : undefined))
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!draining) return done(null, payload)
    const res = reply.raw
    const socket = req.raw.socket
    if (connections.owed(socket) === undefined) return done(null, payload) // light-my-request: no connection
    turnOn(res, socket).then(() => {
      if ((connections.owed(socket) ?? 0) > 1) res.removeHeader('connection')
      else res.setHeader('connection', 'close')
      done(null, payload)
    })
  })
}

/** Resolves once `res` is the answer its connection writes next (or the connection is gone). */
function turnOn(res: ServerResponse, socket: Socket): Promise<void> {
  if (res.socket || socket.destroyed) return Promise.resolve()
  return new Promise(resolve => {
    const done = () => {
      res.off('socket', done)
      socket.off('close', done)
      resolve()
    }
    res.once('socket', done)
    socket.once('close', done)
  })
}

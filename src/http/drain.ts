import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/** A request that arrived once the close had begun: each surface answers its server error as 503. */
export class ShuttingDown extends Error {
  constructor() {
    super('service unavailable: the sandbox is shutting down')
    this.name = 'ShuttingDown'
  }
}

/**
 * The close, connection by connection (wired by buildApp, before the surfaces, so that every
 * route and not-found handler inherits the hooks; Fastify's own 503 is turned off there).
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
export function useDrain(app: FastifyInstance): void {
  const queues = new Map<Socket, ServerResponse[]>()
  const unused = new Set<Socket>()
  let draining = false

  app.server.on('connection', (socket: Socket) => {
    unused.add(socket)
    socket.once('close', () => unused.delete(socket))
  })

  // Before Fastify's listener: the queue is in arrival order when any hook looks at it.
  app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket
    unused.delete(socket)
    let queue = queues.get(socket)
    if (!queue) {
      const created: ServerResponse[] = []
      queues.set(socket, created)
      socket.once('close', () => queues.delete(socket))
      queue = created
    }
    queue.push(res)
    const settled = () => {
      const at = queue.indexOf(res)
      if (at < 0) return
      queue.splice(at, 1)
      // An answer sent keep-alive before the close began was the last: nobody ends it otherwise.
      if (draining && queue.length === 0) socket.end()
    }
    res.once('finish', settled)
    res.once('close', settled)
  })

  const begin = () => {
    draining = true
    // Bytes read but no request yet: one is arriving; the onRequest hook answers it 503.
    for (const socket of unused) if (socket.bytesRead === 0) socket.end()
  }
  app.decorate('beginDrain', begin)
  app.addHook('preClose', async () => begin())
  app.addHook('onRequest', async () => {
    if (draining) throw new ShuttingDown()
  })
  app.addHook('onSend', async (req, reply) => {
    if (!draining) return
    const res = reply.raw
    const socket = req.raw.socket
    if (!queues.get(socket)?.includes(res)) return // light-my-request: no connection to order
    await turnOn(res, socket)
    if ((queues.get(socket)?.length ?? 0) > 1) res.removeHeader('connection')
    else res.setHeader('connection', 'close')
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

import type { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.js'

/**
 * Answers given before the request's body has arrived (issue 29, point 13): a body over the limit
 * (JSMS 403 50007, JPush 400 1005), credentials refused, a wrong method. Fastify marks a refused
 * body `Connection: close` (and a client may ask for it), and Node then closes the connection as
 * soon as the answer is written: a client still writing its 2 MiB is sent a reset, which throws
 * away the answer it had not read yet (EPIPE or ECONNRESET, no 403).
 *
 * So the close lingers, as HTTP servers do (nginx's `lingering_close`, Apache's
 * lingering_close()): the answer goes out and is followed by our FIN, and the rest of what the
 * client writes is read and thrown away (Node's parser takes the body; nobody reads it) until the
 * client closes its side. On a kept-alive connection Node itself reads and discards the rest
 * (req._dump()) and the connection goes on. Bounded either way: a client that writes more than
 * `lingerBytes` after the answer, or lingers longer than `lingerMs`, is disconnected.
 */
export function useLinger(app: FastifyInstance, { lingerBytes, lingerMs }: LingerOptions): void {
  app.addHook('onSend', (req, _reply, payload, done) => {
    const raw = req.raw
    // Only a real connection (light-my-request's has no socket of its own), and only while its
    // body is still arriving: an ordinary request has it whole before anything runs.
    const socket = raw.socket as Lingering | null
    if (!(socket instanceof Socket) || raw.complete || socket.destroyed || socket[LINGERING])
      return done(null, payload)
    linger(raw, socket)
    done(null, payload)
  })

  /** From the answer on (set before it is written: Node's own 'finish' listener comes first). */
  function linger(req: IncomingMessage, socket: Lingering): void {
    socket[LINGERING] = true
    let read = 0
    let closing = false
    let timer: NodeJS.Timeout | undefined
    const own = socket.destroySoon
    // Node closes a connection after its last answer with socket.destroySoon() (end, then
    // destroy once written): here only the end, our FIN; the socket closes once the client's
    // FIN arrives (the server allows half-open sockets), or at the bound.
    socket.destroySoon = () => {
      closing = true
      if (socket.writable) socket.end()
    }
    const stop = () => {
      if (timer) clearTimeout(timer)
      socket.off('data', count)
      socket.off('close', stop)
      req.off('end', bodyRead)
      socket.destroySoon = own
      socket[LINGERING] = false
    }
    const cut = () => {
      stop()
      socket.destroy()
    }
    const count = (chunk: Buffer) => {
      read += chunk.length
      if (read > lingerBytes) cut()
    }
    // The whole body read: a kept-alive connection goes on as usual; a closing one waits for
    // the client's FIN (still bounded by the timer).
    const bodyRead = () => {
      if (!closing) stop()
    }
    socket.once('close', stop)
    req.once('end', bodyRead)
    // The bound counts from the answer on.
    timer = setTimeout(cut, lingerMs).unref()
    socket.on('data', count)
    // Node discards a body nobody reads once the answer is out (req._dump()); one a parser
    // stopped reading mid-way (Fastify's limit) is let flow, into nothing.
    req.resume()
  }
}

const LINGERING = Symbol('lingering')
type Lingering = Socket & { [LINGERING]?: boolean; destroySoon: () => void }

export type LingerOptions = Pick<Config, 'lingerBytes' | 'lingerMs'>

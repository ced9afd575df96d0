import { connect, type Socket } from 'node:net'

/** An answer read off a connection of its own: its status and body (empty for a held 200). */
export interface Outcome {
  status: number
  body: string
}

/**
 * A request on its own connection from `from`: its status and body once answered, or, for a 200
 * that stays open (an event stream, a held wait), at its head: the connection is kept, in
 * `sockets`, for the caller to close. A connection reset instead of an answer rejects.
 */
export function attempt(port: number, from: string, head: string, sockets: Socket[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from })
    sockets.push(socket)
    let text = ''
    socket.setEncoding('latin1')
    socket.on('error', err =>
      reject(new Error(`attempt reset (${err.message}) after ${JSON.stringify(text)}`)),
    )
    socket.on('close', () => reject(new Error(`attempt closed after ${JSON.stringify(text)}`)))
    socket.on('data', chunk => {
      text += chunk
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const status = Number(text.slice(9, 12))
      // A stream's answer stays open: the attacker keeps it. (A held wait is answered 200 when it ends.)
      if (status === 200) return resolve({ status, body: '' })
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0)
      if (text.length >= end + 4 + length) {
        resolve({ status, body: text.slice(end + 4, end + 4 + length) })
        socket.destroy()
      }
    })
    socket.write(head)
  })
}

import type { Duplex } from 'node:stream'

/** One HTTP/1.1 answer read off a raw connection. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export interface RawRequest {
  method: string
  path: string
  auth: string
  body?: unknown
}

/** The bytes of one keep-alive request, as a client that pipelines writes them. */
export function rawRequest({ method, path, auth, body }: RawRequest): string {
  const payload = body === undefined ? '' : JSON.stringify(body)
  return (
    `${method} ${path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: ${auth}\r\n` +
    (payload ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n` : '') +
    `\r\n${payload}`
  )
}

/**
 * Reads every answer the server writes on `socket` until it closes the connection. Answers are
 * parsed as they come (Content-Length bodies: what the sandbox sends); whatever is left over when
 * the connection ends is an answer cut short, reported as such.
 */
export function readAnswers(socket: Duplex, timeoutMs = 30_000): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const answers: RawAnswer[] = []
    let buffer = Buffer.alloc(0)
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`connection still open after ${timeoutMs} ms; ${answers.length} answers read`))
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n')
        const headers: Record<string, string> = {}
        for (const line of lines) {
          const colon = line.indexOf(':')
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
        }
        const length = Number(headers['content-length'] ?? 0)
        if (buffer.length < end + 4 + length) return
        answers.push({
          status: Number(statusLine.split(' ')[1]),
          headers,
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        })
        buffer = buffer.subarray(end + 4 + length)
      }
    })
    socket.on('error', () => {}) // a reset shows as missing answers, which the caller counts
    socket.on('close', () => {
      clearTimeout(timer)
      if (buffer.length > 0) answers.push({ status: 0, headers: {}, body: buffer.toString('latin1') })
      resolve(answers)
    })
  })
}

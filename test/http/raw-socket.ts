import { connect } from 'node:net'

/**
 * Writes raw bytes, half-closes (or, with `end: false`, vanishes 200 ms later without closing),
 * and returns everything that came back before the socket closed.
 */
export function rawExchange(port: number, bytes: Buffer | string, { end = true } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let out = ''
    socket.setEncoding('latin1')
    socket.on('data', chunk => {
      out += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(out))
    socket.write(bytes)
    if (end) socket.end()
    else setTimeout(() => socket.destroy(), 200)
  })
}

/** Status line, headers (lower-cased names) and the bytes after the blank line. */
export function parseResponse(response: string): {
  status: number
  headers: Record<string, string>
  body: string
} {
  const end = response.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = response.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine?.split(' ')[1]), headers, body: response.slice(end + 4) }
}

/**
 * A client that sends a head announcing `length` bytes of JSON, then one byte every 50 ms (never
 * idle, so only a request timeout can end it) until the server closes: everything it answered,
 * and after how long.
 */
export function trickle(
  port: number,
  {
    method = 'POST',
    url,
    auth,
    length = 100_000,
  }: { method?: string; url: string; auth: string; length?: number },
): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', chunk => {
      answer += chunk
    })
    const timer = setInterval(() => socket.writable && socket.write(' '), 50)
    socket.on('error', err => (answer ? undefined : reject(err)))
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ answer, ms: Date.now() - started })
    })
    socket.write(
      `${method} ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"mobile":`,
    )
  })
}

import { connect } from 'node:net'

/** Writes raw bytes, half-closes, and returns everything that came back before the socket closed. */
export function rawExchange(port: number, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let out = ''
    socket.setEncoding('latin1')
    socket.on('data', chunk => {
      out += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(out))
    socket.end(bytes)
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

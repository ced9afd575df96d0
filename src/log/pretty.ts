import type { DestinationStream } from 'pino'

// The log for a person at a terminal (LOG_FORMAT=pretty, the default when stdout is one): the same
// lines pino and the request log write as JSON (log/logger.ts), each turned into one readable line on
// its way out. A machine reading the log gets the JSON (LOG_FORMAT=json, the default otherwise).
//
//   11:15:43.547 INFO  GET /v1/accounts/app 200 6.6 ms  reqId=req-1
//   11:15:44.001 WARN  TLS listener could not start; serving plain HTTP only  tlsPort=443
//     Error: listen EACCES: permission denied 0.0.0.0:443
//         at …

const LEVELS: Record<number, [name: string, colour: number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 36],
  30: ['INFO ', 32],
  40: ['WARN ', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 35],
}

/** Members every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'responseTime', 'err'])

export function prettyDestination(
  out: DestinationStream,
  { colour }: { colour: boolean },
): DestinationStream {
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text)
  return {
    write(chunk: string) {
      let text = ''
      for (const line of chunk.split('\n')) if (line !== '') text += `${prettyLine(line, paint)}\n`
      out.write(text)
    },
  }
}

export function prettyLine(line: string, paint: (code: number, text: string) => string): string {
  let record: Record<string, unknown>
  try {
    record = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line
  }
  const [level, colour] = LEVELS[Number(record.level)] ?? [String(record.level), 0]
  const time = typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : ''
  const ms = typeof record.time === 'number' ? `.${String(record.time % 1000).padStart(3, '0')}` : ''
  let msg = String(record.msg ?? '')
  const req = record.req as { method?: string; url?: string } | undefined
  const res = record.res as { statusCode?: number } | undefined
  if (req && res) {
    const took = typeof record.responseTime === 'number' ? ` ${record.responseTime.toFixed(1)} ms` : ''
    msg = `${req.method} ${req.url} ${res.statusCode}${took}${msg === 'request completed' ? '' : ` (${msg})`}`
  }
  // The members the message does not already say.
  const members = Object.entries(record)
    .filter(([k, v]) => !SHOWN.has(k) && !(typeof v !== 'object' && msg.includes(String(v))))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
  const err = record.err as { stack?: string; message?: string } | undefined
  const detail = err
    ? `\n    ${(err.stack ?? err.message ?? JSON.stringify(err)).replace(/\n/g, '\n    ')}`
    : ''
  const tail = members.length > 0 ? `  ${paint(90, members.join(' '))}` : ''
  return `${paint(90, `${time}${ms}`)} ${paint(colour, level)} ${msg}${tail}${detail}`
}

import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { testConfig } from '../src/config.js'
import { createLogger, infoLineOf } from '../src/log/logger.js'
import { defaultAuth } from './helpers.js'

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map(l => JSON.parse(l)),
  }
}

describe('logs', () => {
  it('redact the authorization header wherever a request is logged', () => {
    const out = capture()
    const log = createLogger('info', out.stream)
    log.info({ req: { headers: { authorization: defaultAuth, 'proxy-authorization': 'Basic eA==' } } }, 'a')
    log.info({ headers: { authorization: defaultAuth } }, 'b')
    expect(out.lines()[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'proxy-authorization': '[redacted]' } },
    })
    expect(out.lines()[1]).toMatchObject({ headers: { authorization: '[redacted]' } })
  })

  it('of real requests, failed ones included, carry no credentials', async () => {
    const out = capture()
    const app = await buildApp(testConfig(), { logger: createLogger('trace', out.stream) })
    try {
      await app.inject({
        method: 'POST',
        url: '/v1/codes',
        headers: { authorization: defaultAuth },
        payload: '{"mobile":',
      })
      await app.inject({ method: 'GET', url: '/v1/accounts/dev', headers: { authorization: defaultAuth } })
    } finally {
      await app.close()
    }
    const text = JSON.stringify(out.lines())
    expect(out.lines().length).toBeGreaterThan(0)
    expect(text).not.toContain(defaultAuth.slice('Basic '.length))
  })

  it('write one line per request, the same JSON pino writes, with the request id', async () => {
    const out = capture()
    const log = createLogger('info', out.stream)
    const app = await buildApp(testConfig(), { logger: log })
    // Fastify logs through a child of the logger it is given: the line is still written as text.
    expect(infoLineOf(app.log)).toBeTypeOf('function')
    try {
      await app.inject({
        method: 'GET',
        url: '/v1/accounts/app?x="1"',
        headers: { authorization: defaultAuth },
      })
      await app.inject({ method: 'GET', url: '/v1/accounts/app' })
    } finally {
      await app.close()
    }
    log.info({ reqId: 'req-x' }, 'through pino')
    const [ok, refused] = out.lines().filter(l => l.msg === 'request completed')
    const viaPino = out.lines().find(l => l.msg === 'through pino')!
    expect(Object.keys(ok!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'req',
      'res',
      'responseTime',
      'msg',
    ])
    expect(ok).toMatchObject({
      level: 30,
      pid: viaPino.pid,
      hostname: viaPino.hostname,
      req: { method: 'GET', url: '/v1/accounts/app?x=%221%22' },
      res: { statusCode: 200 },
    })
    expect(typeof ok!.time).toBe('number')
    expect(typeof ok!.responseTime).toBe('number')
    expect(refused).toMatchObject({ res: { statusCode: 400 } })
    expect(ok!.reqId).not.toBe(refused!.reqId)
  })

  it('write no request line above info', async () => {
    const out = capture()
    const app = await buildApp(testConfig(), { logger: createLogger('warn', out.stream) })
    try {
      await app.inject({ method: 'GET', url: '/v1/accounts/app', headers: { authorization: defaultAuth } })
    } finally {
      await app.close()
    }
    expect(out.lines().filter(l => l.msg === 'request completed')).toEqual([])
  })
})

function raw(): { stream: Writable; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return { stream, text: () => chunks.join('') }
}

describe('logs for a person (LOG_FORMAT=pretty)', () => {
  const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`

  it('are one line a record: time, level, the message, then the members it does not already say', () => {
    const out = raw()
    const log = createLogger('info', out.stream, { pretty: true })
    log.info({ url: 'http://127.0.0.1:8080', tlsPort: 8443 }, 'listening on http://127.0.0.1:8080')
    log.warn({ names: ['a', 'b'] }, 'careful')
    log.error({ err: new Error('boom') }, 'it failed')
    const lines = out.text().split('\n')
    expect(lines[0]).toMatch(new RegExp(`^${TIME} INFO  listening on http://127.0.0.1:8080  tlsPort=8443$`))
    expect(lines[1]).toMatch(new RegExp(`^${TIME} WARN  careful  names=\\["a","b"\\]$`))
    expect(lines[2]).toMatch(new RegExp(`^${TIME} ERROR it failed$`))
    // The error's stack follows, indented.
    expect(lines[3]).toBe('    Error: boom')
    expect(lines[4]).toMatch(/^ {8}at /)
    expect(out.text()).not.toContain('\x1b[')
  })

  it('show a request as method, path, status and time; in colour only for a terminal', async () => {
    const out = raw()
    const app = await buildApp(testConfig(), {
      logger: createLogger('info', out.stream, { pretty: true, colour: true }),
    })
    try {
      await app.inject({ method: 'GET', url: '/v1/accounts/app', headers: { authorization: defaultAuth } })
    } finally {
      await app.close()
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes are the point
    const plain = out.text().replace(/\x1b\[\d+m/g, '')
    expect(plain).toMatch(
      new RegExp(`${TIME} INFO  GET /v1/accounts/app 200 \\d+\\.\\d ms  reqId=req-\\d+\\n`),
    )
    expect(out.text()).toContain('\x1b[32mINFO \x1b[0m')
  })
})

describe('the web UI', () => {
  it("has its own reads logged at debug, so that info shows the application's requests", async () => {
    for (const level of ['info', 'debug'] as const) {
      const out = capture()
      const app = await buildApp(testConfig(), { logger: createLogger(level, out.stream) })
      try {
        const ui = { authorization: defaultAuth, referer: 'http://127.0.0.1:8080/_sandbox/ui/' }
        await app.inject({ method: 'GET', url: '/_sandbox/ui/', headers: { authorization: defaultAuth } })
        await app.inject({ method: 'GET', url: '/_sandbox/sms/messages', headers: ui })
        // The application under test (no Referer), and a failed read of the page: at info.
        await app.inject({
          method: 'GET',
          url: '/_sandbox/sms/messages',
          headers: { authorization: defaultAuth },
        })
        await app.inject({ method: 'GET', url: '/_sandbox/nothing', headers: ui })
      } finally {
        await app.close()
      }
      const seen = out
        .lines()
        .filter(l => l.msg === 'request completed')
        .map(l => [l.level, (l.req as { url: string }).url])
      if (level === 'info')
        expect(seen).toEqual([
          [30, '/_sandbox/sms/messages'],
          [30, '/_sandbox/nothing'],
        ])
      else
        expect(seen).toEqual([
          [20, '/_sandbox/ui/'],
          [20, '/_sandbox/sms/messages'],
          [30, '/_sandbox/sms/messages'],
          [30, '/_sandbox/nothing'],
        ])
    }
  })
})

import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { testConfig } from '../src/config.js'
import { createLogger, infoLineOf } from '../src/logger.js'
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

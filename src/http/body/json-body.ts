import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { Dialect } from '../dialect.js'
import { routeConfig } from '../route-config.js'
import { parseJsonText, TooDeep } from './json-text.js'

// Media types that declare a structure other than JSON: a JSON endpoint refuses them (415).
const FOREIGN_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|application\/xml|text\/xml)/i

/**
 * The official clients send JSON with every Content-Type there is: none at all (Python jsms),
 * `text/plain` (C#), `application/json;charset:utf-8` (Python jpush), chunked bodies
 * (jpush-async). So the body is read as bytes whatever the header says and parsed as JSON;
 * routes marked `body: 'multipart'` get the raw bytes.
 */
export function acceptAnyBody(app: FastifyInstance, dialect: Dialect): void {
  // A route that reads its body as it arrives (an app's document, far larger than anything else)
  // gets the request's stream, and the parser an empty body that says it held the declared length
  // (Fastify compares the bytes it read with Content-Length): nothing is buffered here.
  app.addHook('preParsing', (req, _reply, payload, done) => {
    if (routeConfig(req)?.body !== 'stream') return done(null, payload)
    req.bodyStream = payload
    const none = Object.assign(new PassThrough(), {
      receivedEncodedLength: Number(req.headers['content-length']) || 0,
    })
    none.end()
    done(null, none)
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, raw, done) => {
    const body = raw as Buffer
    if (routeConfig(req)?.body === 'multipart') return done(null, body)
    let text = body.toString('utf8')
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    req.bodyText = text
    if (text.trim() === '') return done(null, undefined)
    let value: unknown
    try {
      value = parseJsonText(text, routeConfig(req)?.exactIntegers)
    } catch (err) {
      // Too deep for the code behind us: the body's own code (50007, 1003, 7002, 3002), not a 500.
      if (err instanceof TooDeep) return done(dialect.invalidBody(err.message))
      // `curl -d '{…}'` labels JSON as a form: accepted above. A real form or XML body is 415.
      const media = String(req.headers['content-type'] ?? '').trim()
      const foreign = dialect.mediaNotSupported !== undefined && FOREIGN_MEDIA.test(media)
      const refusal =
        foreign && dialect.mediaNotSupported
          ? dialect.mediaNotSupported().because(`a ${media} body on an endpoint that takes JSON`)
          : dialect.invalidBody().because(`the body is not JSON: ${(err as Error).message}`)
      return done(refusal)
    }
    done(null, value)
  })
}

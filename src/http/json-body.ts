import type { FastifyInstance } from 'fastify'
import sjson from 'secure-json-parse'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the body is read: JSON (the default) or the raw bytes of a multipart form. */
    body?: 'json' | 'multipart'
    /** Skip authentication (health, method-not-allowed answers). */
    public?: boolean
  }
}

export interface BodyErrors {
  invalidBody(): Error
  mediaNotSupported?: () => Error
}

// Media types that declare a structure other than JSON: a JSON endpoint refuses them (415).
const FOREIGN_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|application\/xml|text\/xml)/i
const FORM = /^application\/x-www-form-urlencoded/i

/**
 * The official clients send JSON with every Content-Type there is: none at all (Python jsms),
 * `text/plain` (C#), `application/json;charset:utf-8` (Python jpush), chunked bodies
 * (jpush-async). So the body is read as bytes whatever the header says and parsed as JSON;
 * routes marked `body: 'multipart'` get the raw bytes.
 */
export function acceptAnyBody(app: FastifyInstance, errors: BodyErrors): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, raw, done) => {
    const body = raw as Buffer
    if (req.routeOptions.config?.body === 'multipart') return done(null, body)
    const media = String(req.headers['content-type'] ?? '').trim()
    let text = body.toString('utf8')
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    // `curl -d '{…}'` without `-H` labels JSON as a form: a JSON object is still taken as JSON.
    const curlJson = FORM.test(media) && text.trimStart().startsWith('{')
    if (errors.mediaNotSupported && FOREIGN_MEDIA.test(media) && !curlJson)
      return done(errors.mediaNotSupported())
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' }))
    } catch {
      done(errors.invalidBody())
    }
  })
}

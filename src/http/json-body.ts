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
  invalidBody(reason?: string): Error
  mediaNotSupported?: () => Error
}

// Media types that declare a structure other than JSON: a JSON endpoint refuses them (415).
const FOREIGN_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|application\/xml|text\/xml)/i

/**
 * Deepest nesting of arrays and objects a body may have. JSON.parse itself copes with any depth,
 * but everything after it recurses: JSON.stringify (payload sizes, storage), String() of an array,
 * every validator that walks a value. Node's stack ends at 3 210 levels for String() of nested
 * arrays and 4 173 for JSON.stringify (measured: docs/reliability.md), so one field nested 9 000
 * deep answered 500. 1 000 is the default limit of Jackson (StreamReadConstraints), Java's most
 * common JSON parser, far deeper than any real payload, and under a third of what our stack takes.
 */
export const MAX_JSON_DEPTH = 1_000

/** Whether valid JSON text nests deeper than `limit`: brackets counted outside strings. */
function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level takes at least one character: a shorter text cannot be too deep.
  if (text.length <= limit) return false
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Skip the string, escapes included (the text has parsed, so it is closed).
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

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
    const foreign = errors.mediaNotSupported !== undefined && FOREIGN_MEDIA.test(media)
    let text = body.toString('utf8')
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    if (text.trim() === '') return done(null, undefined)
    try {
      const value = sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' })
      // Too deep for the code behind us: the body's own code (50007, 1003, 7002, 3002), not a 500.
      if (nestsDeeperThan(text, MAX_JSON_DEPTH))
        return done(errors.invalidBody(`the body nests deeper than ${MAX_JSON_DEPTH} levels`))
      done(null, value)
    } catch {
      // `curl -d '{…}'` labels JSON as a form: accepted above. A real form or XML body is 415.
      done(foreign && errors.mediaNotSupported ? errors.mediaNotSupported() : errors.invalidBody())
    }
  })
}

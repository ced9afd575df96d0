// @ts-check
// The control plane, called as any client calls it: HTTP Basic with the app's appKey and
// masterSecret — or the operator's, naming the app with X-Sandbox-App —, JSON in and out,
// failures in `{"error":{"code","message"}}`.

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {number | undefined} code
   * @param {string} message
   * @param {number} [retryAfter] seconds, from a 429's Retry-After
   */
  constructor(status, code, message, retryAfter) {
    super(code ? `${message} (${code})` : message)
    this.status = status
    this.code = code
    /** The control plane's own words, without the code. */
    this.said = message
    /** When to try again (a 429's Retry-After, in seconds), if it said. */
    this.retryAfter = retryAfter
  }
}

/** @param {string} text */
const utf8Base64 = text => btoa(String.fromCharCode(...new TextEncoder().encode(text)))

/** @param {import('./session.js').Credentials} c */
export const authorizationOf = c =>
  `Basic ${utf8Base64(c.kind === 'app' ? `${c.app_key}:${c.master_secret}` : `${c.user}:${c.password}`)}`

/**
 * @typedef {{
 *   appKey: string,
 *   operator: boolean,
 *   headers: Record<string, string>,
 *   get: (path: string, init?: { signal?: AbortSignal }) => Promise<any>,
 *   post: (path: string, body?: unknown) => Promise<any>,
 *   patch: (path: string, body: unknown) => Promise<any>,
 *   del: (path: string) => Promise<any>,
 * }} Api
 */

/**
 * A client speaking for one app: with its own credentials, or the operator's naming it
 * (`appKey`; none for the operator's own routes, GET /_sandbox/apps).
 * @param {import('./session.js').Credentials} credentials
 * @param {string} [appKey]
 * @returns {Api}
 */
export function createApi(credentials, appKey) {
  /** @type {Record<string, string>} */
  const headers = { authorization: authorizationOf(credentials) }
  const operator = credentials.kind === 'operator'
  if (operator && appKey) headers['x-sandbox-app'] = appKey
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {AbortSignal} [signal]
   */
  async function call(method, path, body, signal) {
    /** @type {Record<string, string>} */
    const sent = { ...headers, accept: 'application/json' }
    if (body !== undefined) sent['content-type'] = 'application/json'
    const res = await fetch(path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      cache: 'no-store',
      signal,
    })
    const text = await res.text()
    let data
    try {
      data = text === '' ? undefined : JSON.parse(text)
    } catch {
      data = undefined
    }
    if (!res.ok) {
      const error = data?.error
      const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN)
      throw new ApiError(
        res.status,
        error?.code,
        error?.message ?? `${method} ${path}: HTTP ${res.status}`,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      )
    }
    return data
  }
  return {
    appKey: appKey ?? (credentials.kind === 'app' ? credentials.app_key : ''),
    operator,
    headers,
    get: (path, init) => call('GET', path, undefined, init?.signal),
    post: (path, body = {}) => call('POST', path, body),
    patch: (path, body) => call('PATCH', path, body),
    del: path => call('DELETE', path),
  }
}

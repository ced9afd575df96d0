// The control plane, called as any client calls it: HTTP Basic with the app's appKey and
// masterSecret, JSON in and out, failures in `{"error":{"code","message"}}`.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(code ? `${message} (${code})` : message)
    this.status = status
    this.code = code
  }
}

const utf8Base64 = text => btoa(String.fromCharCode(...new TextEncoder().encode(text)))

/** A client for one app's credentials. */
export function createApi({ app_key: appKey, master_secret: secret }) {
  const authorization = `Basic ${utf8Base64(`${appKey}:${secret}`)}`
  async function call(method, path, body) {
    const headers = { authorization, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
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
      throw new ApiError(res.status, error?.code, error?.message ?? `${method} ${path}: HTTP ${res.status}`)
    }
    return data
  }
  return {
    appKey,
    get: path => call('GET', path),
    post: (path, body = {}) => call('POST', path, body),
    patch: (path, body) => call('PATCH', path, body),
    del: path => call('DELETE', path),
  }
}

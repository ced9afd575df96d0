import { SandboxError } from './errors.js'

// The client's one way to the sandbox: the global fetch of Node 20+ (or one given), Basic
// credentials, JSON both ways, refusals thrown as SandboxError. Nothing here needs Node itself.

export type Fetch = typeof fetch

export interface RequestOptions {
  /** Query parameters: absent ones are left out, a Date is sent as ISO-8601. */
  query?: object | undefined
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal | undefined
}

export interface Transport {
  readonly baseUrl: string
  /** `Basic …` for the app's appKey:masterSecret. */
  readonly authorization: string
  json<T>(method: string, path: string, options?: RequestOptions): Promise<T>
  /** The answer itself, for a stream; a refusal is thrown all the same. */
  open(method: string, path: string, options?: RequestOptions): Promise<Response>
}

export function queryString(query: object = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query) as Array<[string, unknown]>) {
    if (value === undefined) continue
    params.set(key, value instanceof Date ? value.toISOString() : String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

export function basicAuthorization(user: string, secret: string): string {
  return `Basic ${btoa(`${user}:${secret}`)}`
}

/** `extra`: headers sent with every request (the operator's X-Sandbox-App). */
export function createTransport(
  baseUrl: string,
  authorization: string,
  fetcher: Fetch = fetch,
  extra: Record<string, string> = {},
): Transport {
  const root = baseUrl.replace(/\/+$/, '')

  async function open(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const { query, body, headers = {}, signal } = options
    const res = await fetcher(`${root}${path}${queryString(query)}`, {
      method,
      headers: {
        authorization,
        accept: 'application/json',
        ...extra,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ?? null,
    })
    if (res.ok) return res
    throw SandboxError.fromAnswer(method, path, res.status, await res.text())
  }

  return {
    baseUrl: root,
    authorization,
    open,
    async json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
      const res = await open(method, path, options)
      const text = await res.text()
      try {
        return JSON.parse(text) as T
      } catch {
        throw new SandboxError(
          res.status,
          null,
          `${method} ${path}: the answer is not JSON: ${text.slice(0, 200)}`,
        )
      }
    },
  }
}

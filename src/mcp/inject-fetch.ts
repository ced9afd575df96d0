import type { FastifyInstance } from 'fastify'
import type { Fetch } from '../../client/src/http.js'

// A fetch whose requests are answered by the app's own routes (Fastify's inject), not over a
// socket: how /_sandbox/mcp and `mcp --embedded` call the control plane. Every hook a request over
// the network meets still runs — authentication, the bounds on held requests, the journal — with
// the caller's credentials and address, so what the tools may see and hold is decided as for any client.

export interface InjectOptions {
  /** The address the requests come from: the MCP client's, which the per-client bounds count. */
  remoteAddress?: string | undefined
  /** Ends the requests still held (a `wait=`) when the MCP client is gone. */
  signal?: AbortSignal | undefined
}

export function injectFetch(app: FastifyInstance, { remoteAddress, signal }: InjectOptions = {}): Fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
      ...((init?.signal ?? signal) ? { signal: (init?.signal ?? signal) as AbortSignal } : {}),
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v))
    }
    const raw = res.rawPayload
    const empty = res.statusCode === 204 || res.statusCode === 304 || raw.length === 0
    const body = empty ? null : new Uint8Array(raw.buffer as ArrayBuffer, raw.byteOffset, raw.byteLength)
    return new Response(body, { status: res.statusCode, headers })
  }
}

import { expect } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import type { ManualClock } from '../../src/clock.js'
import type { ApiError } from '../../src/errors.js'
import { call, defaultAuth } from '../helpers.js'

// What documented-failures.test.ts runs: for one operation of the OpenAPI document, requests that
// make the route answer each of the failures it lists (`x-failure-order`), in that order.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

export interface Tools {
  app: SandboxApp
  clock: ManualClock
  /** A request that must fail: its answer as `status code message`. */
  fail(method: Method, url: string, body?: unknown, headers?: Record<string, string>): Promise<string>
  /** A request that must succeed: its body. */
  ok(
    method: Method,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Record<string, unknown>>
  /** A raw request (multipart forms): its answer as `fail` writes it, whatever the status. */
  raw(method: Method, url: string, contentType: string | undefined, payload: Buffer | string): Promise<string>
}

export interface Script {
  /** The documented failures, answered, in the document's order. */
  run(t: Tools): Promise<string[]>
}

/** A failure as `status code message`, as `fail` writes an answer. */
export const described = (e: Pick<ApiError, 'status' | 'code' | 'message'>) =>
  `${e.status} ${e.code} ${e.message}`

type Failure = { code?: number; message?: string }
type Body = (Failure & { error?: Failure }) | undefined

// Nested {"error":{…}}, or flat {code, message} where the vendor's clients read it so (push plans,
// push templates).
const answer = (status: number, body: Body) =>
  status >= 200 && status < 300
    ? `${status} ${JSON.stringify(body)}`
    : `${status} ${(body?.error ?? body)?.code} ${(body?.error ?? body)?.message}`

export function toolsFor(app: SandboxApp, clock: ManualClock): Tools {
  return {
    app,
    clock,
    async fail(method, url, body, headers) {
      const res = await call(app, method, url, body, headers)
      expect(res.status, `${method} ${url}: ${res.raw}`).toBeGreaterThanOrEqual(400)
      return answer(res.status, res.body)
    },
    async ok(method, url, body, headers) {
      const res = await call(app, method, url, body, headers)
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(200)
      return res.body
    },
    async raw(method, url, contentType, payload) {
      const res = await app.inject({
        method,
        url,
        headers: {
          authorization: defaultAuth,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        payload,
      })
      return answer(res.statusCode, res.body ? JSON.parse(res.body) : undefined)
    },
  }
}

import { expect } from 'vitest'
import { documentedCodes } from './vendor-codes.js'

export interface Answer {
  statusCode: number
  headers: Record<string, unknown>
  body: string
}

/**
 * What every answer must be, whatever was asked: never a 5xx; JSON (but for HEAD, the CA
 * certificate, the metrics and the docs page); a failure in the path's envelope (errorOf) with a code the
 * vendor owning the path documents. Returns the error code of a failure, undefined otherwise.
 */
export function expectVendorAnswer(method: string, url: string, res: Answer): number | undefined {
  const where = `${method} ${url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`
  expect(res.statusCode, where).toBeLessThan(500)
  if (method === 'HEAD') return undefined
  const path = new URL(url, 'http://x').pathname
  // The answers that are not JSON: the CA certificate, for trust stores; the metrics, for
  // Prometheus; the docs page, the web UI and their files.
  if (
    res.statusCode === 200 &&
    /\/ca\.pem\/*$|^\/+_sandbox\/+metrics\/*$|^\/+_sandbox\/+(docs|ui)(\/|$)/.test(path)
  )
    return undefined
  const body = JSON.parse(res.body)
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/)
  if (res.statusCode < 400) return undefined
  const error = errorOf(path, body)
  expect(typeof error?.code, where).toBe('number')
  expect(typeof error?.message, where).toBe('string')
  const codes = documentedCodes(path)
  if (codes) expect(codes.has(error?.code as number), where).toBe(true)
  return error?.code as number
}

/**
 * The error of a failed answer: `{"error":{"code","message"}}`; on the push plan API's paths and
 * the template pushes' also flat, `{"code","message"}`, as their routes answer their failures
 * (docs/jpush-wire.md "Push plans"; jiguang-sdk-java's ApiErrorDecoder reads a template push's
 * refusal flat: issue 29, point 1). A method no route of the surface knows (PROPFIND) is the
 * surface's 404, in the envelope.
 */
export function errorOf(path: string, body: unknown): { code?: unknown; message?: unknown } | undefined {
  const b = body as {
    error?: { code?: unknown; message?: unknown }
    code?: unknown
    message?: unknown
  } | null
  if (b?.error !== undefined) return b.error
  return /^\/+v3\/+(push_plan\/+(create|update|list)|push\/+template(\/+schedule)?)\/*(\?|$)/.test(path) && b
    ? b
    : undefined
}

import { basic, newKey } from '../helpers.js'

// The code under test, as far as these tests need one: it calls /v1 and /v3 with its app's
// credentials (the tools never send on its behalf).

export interface TestApp {
  appKey: string
  masterSecret: string
  authorization: string
}

/** A new app's credentials (made by its first request). */
export function newApp(prefix = 'mcp'): TestApp {
  const appKey = newKey(prefix)
  const masterSecret = newKey('secret')
  return { appKey, masterSecret, authorization: basic(appKey, masterSecret) }
}

/** A call of the app under test to the sandbox at `url`: status and JSON body. */
export async function vendor(
  url: string,
  app: { authorization: string },
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: app.authorization },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time, as JSMS's send_time takes it. */
export const beijing = (ms: number) =>
  new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')

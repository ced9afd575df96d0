import { buildApp, type SandboxApp } from '../src/app.js'
import { ManualClock } from '../src/clock.js'
import { type Config, testConfig } from '../src/config.js'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../src/seed/fixtures.js'
import { afterEachTest } from './teardown.js'

export const APP_KEY = DEFAULT_APP_KEY
export const MASTER_SECRET = DEFAULT_MASTER_SECRET

const open: SandboxApp[] = []

afterEachTest(async () => {
  await Promise.all(open.splice(0).map(app => app.close()))
})

export interface TestApp {
  app: SandboxApp
  clock: ManualClock
}

/** A fresh sandbox on `:memory:` with a clock that moves only when the test says so. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const clock = new ManualClock()
  const app = await buildApp(testConfig(overrides), { clock })
  open.push(app)
  return { app, clock }
}

export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
}

export const defaultAuth = basic(APP_KEY, MASTER_SECRET)

/** A fresh 24-character credential, so a test can be its own tenant. */
export function newKey(prefix = 'k'): string {
  return (prefix + Math.random().toString(36).slice(2) + '0'.repeat(24))
    .slice(0, 24)
    .replace(/[^A-Za-z0-9]/g, '0')
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

/** `inject` with the default credentials and a JSON body, as the official clients send it. */
export async function call(
  app: SandboxApp,
  method: Method,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method,
    url,
    headers: {
      authorization: defaultAuth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  return {
    status: res.statusCode,
    // JSON when the answer says so (everything but /_sandbox/ca.pem); the text stays in `raw`.
    body: res.body !== '' && /json/.test(String(res.headers['content-type'])) ? res.json() : undefined,
    headers: res.headers,
    raw: res.body,
  }
}

import { afterAll, beforeAll } from 'vitest'
import { createApp, type SandboxClient } from '../../client/src/index.js'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'

// The client end to end: one sandbox per test file on a loopback port (its clock moves only when a
// test moves an app's clock), and an app of its own for each test, as a user's suite would run.

export interface Started {
  app: SandboxApp
  clock: ManualClock
  url: string
  /**
   * Closes the sandbox and cuts what is still connected: fetch's pool may hold a connection it
   * opened but never used, which the sandbox's graceful close would wait for until the request
   * timeout (REQUEST_TIMEOUT_MS: 30 s).
   */
  close(): Promise<void>
}

/** A sandbox listening on a loopback port; close() it when done. */
export async function startSandbox(): Promise<Started> {
  const clock = new ManualClock()
  const app = await buildApp(testConfig(), { clock })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const close = async () => {
    const closing = app.close()
    app.server.closeAllConnections()
    await closing
  }
  return { app, clock, url, close }
}

export interface Listening extends Started {
  /** A client of a fresh app of its own. */
  newApp(): Promise<SandboxClient>
  /** Calls /v1 or /v3 with the client's credentials, as the app under test would. */
  vendor(
    sb: SandboxClient,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }>
}

/** The file's sandbox, started before its tests and closed after them. */
export function listening(): Listening {
  const ready = {} as Listening
  beforeAll(async () => {
    const started = await startSandbox()
    Object.assign(ready, {
      ...started,
      newApp: () => createApp({ baseUrl: started.url, prefix: 'client' }),
      async vendor(sb: SandboxClient, method: string, path: string, body?: unknown) {
        const res = await fetch(`${started.url}${path}`, {
          method,
          headers: { authorization: sb.authorization },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        const text = await res.text()
        return { status: res.status, body: text ? JSON.parse(text) : undefined }
      },
    })
  })
  afterAll(() => ready.close?.())
  return ready
}

/**
 * For a page's example that reads the sandbox's address from SANDBOX, as a reader's suite would:
 * the file's sandbox, started before its tests with its address there, closed after them.
 */
export function sandboxInEnv(): void {
  let close = async () => {}
  beforeAll(async () => {
    const started = await startSandbox()
    process.env.SANDBOX = started.url
    close = started.close
  })
  afterAll(() => close())
}

import { Writable } from 'node:stream'
import { Agent, request } from 'undici'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { type Config, testConfig } from '../../src/config.js'
import type { HubOptions } from '../../src/events/hub.js'
import { createLogger } from '../../src/log/logger.js'
import { defaultAuth } from '../helpers.js'
import { afterEachTest } from '../teardown.js'

// Waiting and events over a real socket (issue 12 §3, §4): a sandbox on port 0, requests through
// undici, and a small Server-Sent Events reader.

const open: Array<{ app: SandboxApp; agent: Agent }> = []

afterEachTest(async () => {
  for (const { app, agent } of open.splice(0)) {
    await app.close()
    await agent.close()
  }
})

/** A sandbox listening on a loopback port, with its own undici agent and the lines it logs. */
export async function listening(events: HubOptions = {}, overrides: Partial<Config> = {}) {
  const clock = new ManualClock()
  const logged: string[] = []
  const log = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk))
      done()
    },
  })
  const app = await buildApp(testConfig(overrides), { clock, events, logger: createLogger('info', log) })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const agent = new Agent()
  open.push({ app, agent })

  async function http(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ) {
    const res = await request(`${url}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: defaultAuth, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    })
    const text = await res.body.text()
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined }
  }
  return { app, clock, url, agent, http, log: () => logged.join('') }
}

export interface SseEvent {
  id: string | undefined
  event: string
  data: string
  json: Record<string, unknown>
}

/**
 * Opens GET /_sandbox/events as an EventSource would (Accept: text/event-stream) and collects its
 * events and comments as they come.
 */
export async function openStream(base: string, agent: Agent, path = '/_sandbox/events', headers = {}) {
  const abort = new AbortController()
  const res = await request(`${base}${path}`, {
    dispatcher: agent,
    signal: abort.signal,
    headers: { authorization: defaultAuth, accept: 'text/event-stream', ...headers },
  })
  const events: SseEvent[] = []
  const comments: string[] = []
  let text = ''
  let ended = false
  const waiting = new Set<() => void>()
  const consumed = (async () => {
    try {
      for await (const chunk of res.body) {
        text += String(chunk)
        let end = text.indexOf('\n\n')
        while (end >= 0) {
          const block = text.slice(0, end)
          text = text.slice(end + 2)
          const fields: Record<string, string> = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim())
            else if (line.includes(':'))
              fields[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 2)
          }
          if (fields.data !== undefined)
            events.push({
              id: fields.id,
              event: fields.event ?? 'message',
              data: fields.data,
              json: JSON.parse(fields.data),
            })
          end = text.indexOf('\n\n')
        }
        for (const w of waiting) w()
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true
      for (const w of waiting) w()
    }
  })()

  /** Resolves once `done()` holds, re-checked at every chunk; rejects if the stream ends first. */
  function until(done: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (done()) {
          waiting.delete(check)
          resolve()
        } else if (ended) {
          waiting.delete(check)
          reject(new Error(`the stream ended before ${what}`))
        }
      }
      waiting.add(check)
      check()
    })
  }

  return {
    status: res.statusCode,
    headers: res.headers,
    events,
    comments,
    until,
    /** Resolves with the first `n` events, once they arrived. */
    async take(n: number): Promise<SseEvent[]> {
      await until(() => events.length >= n, `${n} events`)
      return events.slice(0, n)
    },
    ended: () => consumed.then(() => ended),
    close() {
      abort.abort()
      return consumed
    },
  }
}

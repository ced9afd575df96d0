import { Writable } from 'node:stream'
import { buildApp, type SandboxApp } from '../src/app.js'
import { ManualClock } from '../src/clock.js'
import { type Config, testConfig } from '../src/config.js'
import { createLogger } from '../src/log/logger.js'
import { afterEachTest } from './teardown.js'

export type LogLine = Record<string, unknown> & { level: number; msg: string; err?: Record<string, unknown> }

const open: SandboxApp[] = []

afterEachTest(async () => {
  await Promise.all(open.splice(0).map(app => app.close()))
})

/** createTestApp (helpers.ts), plus the JSON lines the app logs at `info` and above. */
export async function createLoggedApp(overrides: Partial<Config> = {}) {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  const clock = new ManualClock()
  const app = await buildApp(testConfig(overrides), { clock, logger: createLogger('info', stream) })
  open.push(app)
  const lines = (): LogLine[] =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map(l => JSON.parse(l))
  return { app, clock, lines }
}

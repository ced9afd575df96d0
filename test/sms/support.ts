import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SandboxApp } from '../../src/app.js'
import type { Config } from '../../src/config.js'
import { basic, call, createTestApp, type TestApp } from '../helpers.js'

// Shared fixtures for the /v1 tests: one SANDBOX_CONFIG file holding every app whose state a
// test needs (blacklisted, frozen, tiny balances…), each reached with its own credentials.

export const MOBILE = '13800138000'
export const OTHER_MOBILE = '13900139000'

/** A 24-character credential from a readable name. */
export const key = (name: string) => `${name}${'0'.repeat(24)}`.slice(0, 24)

const devs = {
  frozen: { dev_key: key('devfrozen'), dev_secret: key('devfrozensecret'), frozen: true },
  // No quota at all, so an app's own buckets are the only ones that can pay.
  broke: {
    dev_key: key('devbroke'),
    dev_secret: key('devbrokesecret'),
    balances: { balance: null, voice: null, industry: null, market: null },
  },
  // One unit in each bucket: shows the developer's buckets are used after the app's.
  ones: {
    dev_key: key('devones'),
    dev_secret: key('devonessecret'),
    balances: { balance: 1, voice: 1, industry: 1, market: 1 },
  },
}

const apps = {
  blacklisted: { blacklisted: true },
  disabled: { sms_enabled: false },
  whitelisted: { ip_whitelist: ['10.1.2.3'] },
  frozen: { dev_key: devs.frozen.dev_key },
  unsigned: { signs: [] },
  unsubscribed: { unsubscribed: [MOBILE, `+86${OTHER_MOBILE}`] },
  words: { sensitive_words: ['forbiddenword'] },
  poor: { dev_key: devs.broke.dev_key, balances: { balance: 0, voice: 0, industry: 0, market: 0 } },
  five: { dev_key: devs.broke.dev_key, balances: { balance: 5, voice: null, industry: null, market: null } },
  buckets: { dev_key: devs.ones.dev_key, balances: { balance: 1, voice: 1, industry: 1, market: 1 } },
  // A notification template with no parameter, for `temp_para: []`.
  plain: {
    templates: [{ temp_id: 90, template: '您的包裹已到，请及时取件。', type: 2 }],
  },
  billing: {
    dev_key: devs.broke.dev_key,
    balances: { balance: null, voice: null, industry: 100, market: null },
  },
} satisfies Record<string, Record<string, unknown>>

export type SeededName = keyof typeof apps

export const seeded = (name: SeededName) => ({ appKey: key(name), secret: key(`${name}secret`) })
export const devCredentials = (name: keyof typeof devs) => ({
  devKey: devs[name].dev_key,
  secret: devs[name].dev_secret,
})

let seedPath: string | undefined

/** The seed file, written once per test file. */
export function seedFile(): string {
  if (!seedPath) {
    const dir = mkdtempSync(join(tmpdir(), 'sms-tests-'))
    seedPath = join(dir, 'sandbox.json')
    const seed = {
      developers: Object.values(devs),
      apps: Object.entries(apps).map(([name, extra]) => ({
        app_key: seeded(name as SeededName).appKey,
        master_secret: seeded(name as SeededName).secret,
        ...extra,
      })),
    }
    writeFileSync(seedPath, JSON.stringify(seed, null, 2))
  }
  return seedPath
}

/** A fresh sandbox that knows the seeded apps. */
export function seededApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  return createTestApp({ seedFile: seedFile(), ...overrides })
}

/** `call` as one of the seeded apps. */
export function as(name: SeededName) {
  const { appKey, secret } = seeded(name)
  const authorization = basic(appKey, secret)
  return (app: SandboxApp, method: 'GET' | 'POST', url: string, body?: unknown) =>
    call(app, method, url, body, { authorization })
}

/** Sends a text code and reads it back through the inspection endpoint. */
export async function sendCode(app: SandboxApp, mobile = MOBILE, extra: Record<string, unknown> = {}) {
  const sent = await call(app, 'POST', '/v1/codes', { mobile, temp_id: 1, ...extra })
  if (sent.status !== 200) throw new Error(`send failed: ${sent.raw}`)
  const latest = await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${mobile}`)
  return { msgId: sent.body.msg_id as string, code: latest.body.code as string }
}

/** The vendor envelope of a failure. */
export const envelope = (code: number, message: string) => ({ error: { code, message } })

import type { SandboxApp } from '../../src/app.js'
import { call } from '../helpers.js'

export const ANDROID_1 = '1a0018970a8b0fd6c0e'
export const ANDROID_2 = '1a0018970a8b0fd6c0f'
export const IOS_1 = '191e35f7e07d6ea1f0e'
export const IOS_2 = '191e35f7e07d6ea1f0f'

/** A minimal valid push body: one android notification to one default device. */
export function pushBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    platform: 'all',
    audience: { registration_id: [ANDROID_1] },
    notification: { alert: 'hello' },
    ...overrides,
  }
}

/** The three rate headers of an answer (inject shows them lower-cased): limit, remaining, reset. */
export const rate = (h: Record<string, unknown>) => [
  h['x-rate-limit-limit'],
  h['x-rate-limit-remaining'],
  h['x-rate-limit-reset'],
]

export async function push(app: SandboxApp, body: unknown, path = '/v3/push') {
  return call(app, 'POST', path, body)
}

/** Adds a device through the sandbox, as a phone registering would. */
export async function addDevice(app: SandboxApp, device: Record<string, unknown>) {
  const res = await call(app, 'POST', '/_sandbox/push/devices', device)
  if (res.status !== 200) throw new Error(`device not created: ${res.raw}`)
  return res.body as { registration_id: string }
}

export async function received(app: SandboxApp, query: string) {
  return (await call(app, 'GET', `/_sandbox/push/messages?${query}`)).body.messages as Array<
    Record<string, unknown>
  >
}

import type { SandboxApp } from '../../src/app.js'
import { formatLocal } from '../../src/time.js'
import { call } from '../helpers.js'

export const HOUR = 3600_000

/** `send_time` for `ms` after the app's current time, in Beijing time (the default zone). */
export async function sendTimeIn(
  app: SandboxApp,
  ms: number,
  headers: Record<string, string> = {},
): Promise<string> {
  const clock = await call(app, 'GET', '/_sandbox/clock', undefined, headers)
  return formatLocal(clock.body.now + ms, 'Asia/Shanghai')
}

export async function advance(app: SandboxApp, ms: number, headers: Record<string, string> = {}) {
  const res = await call(app, 'POST', '/_sandbox/clock', { advance_ms: ms }, headers)
  if (res.status !== 200) throw new Error(`clock move failed: ${res.raw}`)
  return res.body as { now: number; offset_ms: number }
}

export async function sentTo(app: SandboxApp, mobile: string, headers: Record<string, string> = {}) {
  const res = await call(app, 'GET', `/_sandbox/sms/messages?mobile=${mobile}`, undefined, headers)
  return res.body.messages as Array<{
    msg_id: string
    content: string
    schedule_id: string | null
    created_at: string
  }>
}

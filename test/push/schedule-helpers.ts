import { expect } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { JPUSH_TIME_ZONE } from '../../src/push/schedules/rules.js'
import { formatLocal, parseLocal } from '../../src/time.js'
import { call } from '../helpers.js'
import { ANDROID_1 } from './helpers.js'

// Schedules speak Beijing time (jpush-api.md §8). The test clock starts at
// 2026-01-01T00:00:00Z, which is 2026-01-01 08:00:00 in Beijing.

export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

/** A Beijing wall time as the API writes it, as an instant. */
export const at = (text: string): number => {
  const ms = parseLocal(text, JPUSH_TIME_ZONE)
  if (ms === undefined) throw new Error(`not a time: ${text}`)
  return ms
}
export const beijing = (ms: number) => formatLocal(ms, JPUSH_TIME_ZONE)

/** The push of a task: a notification to one default android device. */
export const taskPush = (overrides: Record<string, unknown> = {}) => ({
  platform: 'all',
  audience: { registration_id: [ANDROID_1] },
  notification: { alert: 'scheduled' },
  ...overrides,
})

export const single = (time: string, extra: Record<string, unknown> = {}) => ({
  name: 'single_task',
  enabled: true,
  trigger: { single: { time } },
  push: taskPush(),
  ...extra,
})

export const periodical = (p: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'periodical_task',
  enabled: true,
  trigger: { periodical: { time_unit: 'day', frequency: 1, ...p } },
  push: taskPush(),
  ...extra,
})

/** Creates a task; throws unless it is accepted. */
export async function create(app: SandboxApp, body: unknown, headers: Record<string, string> = {}) {
  const res = await call(app, 'POST', '/v3/schedules', body, headers)
  if (res.status !== 200) throw new Error(`task not created: ${res.raw}`)
  return res.body.schedule_id as string
}

export interface MsgIdEntry {
  msg_id: string
  error: { code: number; message: string }
  needRetry: boolean
  ts: number
}

/** GET /v3/schedules/{id}/msg_ids, each JSON-encoded entry decoded. */
export async function firings(app: SandboxApp, id: string, headers: Record<string, string> = {}) {
  const res = await call(app, 'GET', `/v3/schedules/${id}/msg_ids`, undefined, headers)
  if (res.status !== 200) throw new Error(`no msg_ids: ${res.raw}`)
  expect(res.body.count).toBe(res.body.msgids.length)
  return (res.body.msgids as string[]).map(s => JSON.parse(s) as MsgIdEntry)
}

/** Moves the app's clock forward through the control plane (everything due on the way runs). */
export async function advance(app: SandboxApp, ms: number, headers: Record<string, string> = {}) {
  const res = await call(app, 'POST', '/_sandbox/clock', { advance_ms: ms }, headers)
  if (res.status !== 200) throw new Error(`clock not moved: ${res.raw}`)
}

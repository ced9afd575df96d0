import type { SandboxApp } from '../../src/app.js'
import { basic, call } from '../helpers.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'
import type { Failure } from './decoder.js'

// The requests the decoder tests drive the sandbox with, shared by every client's file: each
// client sends these bodies (its own serialisation aside, which test/push and test/sms check).

export const PUSH = pushBody()
/** A push the push host refuses: no audience (400 1002). */
export const NO_AUDIENCE = { platform: 'all', notification: { alert: 'x' } }
/** A registration_id no device has: 400 1003 with illegal_rids. */
export const UNKNOWN_RID = '1a0018970a8b0fd6c99'
/** The app's clock starts at 2026-01-01 00:00 UTC (ManualClock): a day later is in the future. */
export const SCHEDULE = {
  name: 'decoder',
  enabled: true,
  trigger: { single: { time: '2026-01-02 10:00:00' } },
  push: PUSH,
}
/** More than a year ahead: 400 8100. */
export const SCHEDULE_TOO_LATE = { ...SCHEDULE, trigger: { single: { time: '2028-01-02 10:00:00' } } }
export const ADD_TAG = { registration_ids: { add: [ANDROID_1] } }
export const ADD_UNKNOWN = { registration_ids: { add: ['zz'] } }
export const REMOVE_UNKNOWN = { registration_ids: { remove: ['zz'] } }
export const TEMPLATE_ID = 'c65b34b96512'
export const TEMPLATE_PUSH = {
  id: TEMPLATE_ID,
  params: [{ audience: { registration_id: [ANDROID_1] }, keys: { content: 'hi' } }],
}
export const TEMPLATE_SCHEDULE = {
  id: TEMPLATE_ID,
  params: [{ audience: { registration_id: [ANDROID_1] }, keys: { content: 'hi' } }],
  trigger: { single: { time: '2026-01-02 10:00:00' } },
  name: 'decoder',
}
export const BATCH = (target: string) => ({
  pushlist: { c1: { platform: 'all', target, notification: { alert: 'x' } } },
})

export const SMS_CODE = { mobile: '13800138000', temp_id: 1 }
export const SMS_MESSAGE = { mobile: '13800138002', temp_id: 2, temp_para: { order: 'A1', days: '3' } }
export const SMS_BATCH = {
  temp_id: 2,
  recipients: [
    { mobile: '13800138003', temp_para: { order: 'A1', days: '3' } },
    { mobile: '12', temp_para: { order: 'A1', days: '3' } },
  ],
}
export const SMS_SCHEDULE = { send_time: '2026-01-02 10:00:00', ...SMS_MESSAGE }
export const SMS_SCHEDULE_BATCH = {
  send_time: '2026-01-02 10:00:00',
  temp_id: 2,
  recipients: SMS_BATCH.recipients.slice(0, 1),
}
export const SMS_TEMPLATE = { template: 'hello {{name}}', type: 2, ttl: 0, remark: 'decoder' }

async function ok(res: Awaited<ReturnType<typeof call>>, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.raw}`)
  return res.body
}

/** A push made, its msg_id. */
export async function pushed(app: SandboxApp): Promise<string> {
  return (await ok(await call(app, 'POST', '/v3/push', PUSH), 'push')).msg_id
}

/** A push schedule made, its schedule_id. */
export async function scheduled(app: SandboxApp): Promise<string> {
  return (await ok(await call(app, 'POST', '/v3/schedules', SCHEDULE), 'schedule')).schedule_id
}

/** The push template TEMPLATE_ID defined in the control plane (the vendor's console). */
export async function definedTemplate(app: SandboxApp) {
  await ok(
    await call(app, 'PUT', `/_sandbox/push/templates/${TEMPLATE_ID}`, {
      name: 'decoder',
      push: { platform: 'all', notification: { android: { alert: '{{content}}' } } },
    }),
    'push template',
  )
}

/** A scheduled text made, its schedule_id. */
export async function smsScheduled(app: SandboxApp): Promise<string> {
  return (await ok(await call(app, 'POST', '/v1/schedule', SMS_SCHEDULE), 'sms schedule')).schedule_id
}

/** A scheduled batch made, its schedule_id. */
export async function smsBatchScheduled(app: SandboxApp): Promise<string> {
  return (await ok(await call(app, 'POST', '/v1/schedule/batch', SMS_SCHEDULE_BATCH), 'sms batch schedule'))
    .schedule_id
}

/** A text code sent, its msg_id. */
export async function codeSent(app: SandboxApp): Promise<string> {
  return (await ok(await call(app, 'POST', '/v1/codes', SMS_CODE), 'code')).msg_id
}

/** A JSMS template made, its temp_id. */
export async function smsTemplate(app: SandboxApp): Promise<number> {
  return (await ok(await call(app, 'POST', '/v1/templates', SMS_TEMPLATE), 'template')).temp_id
}

/** Two more of the push host's documented refusals every push client meets on POST /v3/push. */
export const PUSH_REFUSALS: Failure[] = [
  {
    name: 'app_key does not exist (not 24 characters)',
    run: app => call(app, 'POST', '/v3/push', PUSH, { authorization: basic('short', 'x'.repeat(24)) }),
    status: 400,
    code: 1008,
  },
  {
    name: 'message too long',
    run: app => call(app, 'POST', '/v3/push', { ...PUSH, message: { msg_content: 'a'.repeat(5000) } }),
    status: 400,
    code: 1005,
  },
]

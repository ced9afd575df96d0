import { z } from 'zod'
import { field } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { byteLength, isIntIn, isObject, scalarText } from '../values.js'

// options (jpush-api.md §5.7) and sms_message (§5.6). Unknown option keys pass: java, php and
// the newer SDKs add flags of their own.

export interface PushOptions {
  /** Echoed back as a string; "0" when absent. */
  sendno: string
  timeToLive: number
  overrideMsgId: string | undefined
  /** `test_model: true`: only the app's test devices (POST /v3/test/model/add) are reached. */
  testModel: boolean
  /** `business_operation_code`: the push plan it is counted under (POST /v3/push_plan/create). */
  plan: string | undefined
}

export interface SmsFallback {
  delayTime: number
  tempId: number | undefined
  tempPara: Record<string, string>
  signId: number | undefined
  /** The legacy free text (≤ 480 characters) older clients send instead of a template. */
  content: string | undefined
}

const absent = (v: unknown) => v === undefined || v === null

export function parseOptions(value: unknown): PushOptions {
  if (absent(value))
    return {
      sendno: '0',
      timeToLive: PUSH_LIMITS.defaultTimeToLive,
      overrideMsgId: undefined,
      testModel: false,
      plan: undefined,
    }
  if (!isObject(value)) throw pushErrors.invalid('options must be an object')
  const o = value
  let sendno = '0'
  if (!absent(o.sendno)) {
    // node sends up to 4294967294 (uint32), java an int; a numeric string is taken too.
    const n = typeof o.sendno === 'string' && /^\d{1,10}$/.test(o.sendno) ? Number(o.sendno) : o.sendno
    if (!isIntIn(n, 0, PUSH_LIMITS.maxSendno)) throw pushErrors.invalid("'sendno' value is invalid.")
    sendno = String(n)
  }
  let timeToLive: number = PUSH_LIMITS.defaultTimeToLive
  if (!absent(o.time_to_live)) {
    if (!isIntIn(o.time_to_live, 0, PUSH_LIMITS.maxTimeToLive))
      throw pushErrors.invalid("'time_to_live' value is invalid.")
    timeToLive = o.time_to_live
  }
  let overrideMsgId: string | undefined
  if (!absent(o.override_msg_id)) {
    const id = scalarText(o.override_msg_id)
    if (id === undefined || !/^\d{1,19}$/.test(id))
      throw pushErrors.invalid("'override_msg_id' value is invalid.")
    overrideMsgId = id
  }
  if (
    !absent(o.apns_production) &&
    typeof o.apns_production !== 'boolean' &&
    o.apns_production !== 0 &&
    o.apns_production !== 1
  ) {
    throw pushErrors.invalid("'apns_production' value is invalid.")
  }
  if (
    !absent(o.apns_collapse_id) &&
    (typeof o.apns_collapse_id !== 'string' || byteLength(o.apns_collapse_id) > 64)
  ) {
    throw pushErrors.invalid("'apns_collapse_id' value is invalid.")
  }
  if (!absent(o.big_push_duration) && !isIntIn(o.big_push_duration, 0, 1400)) {
    throw pushErrors.invalid("'big_push_duration' value is invalid.")
  }
  if (!absent(o.classification) && o.classification !== 0 && o.classification !== 1) {
    throw pushErrors.invalid("'classification' value is invalid.")
  }
  if (!absent(o.test_model) && typeof o.test_model !== 'boolean')
    throw pushErrors.invalid("'test_model' value is invalid.")
  // A plan's name, as POST /v3/push_plan/create takes it; whether the app has it is checked when
  // the push is made (delivery/dispatch.ts).
  if (!absent(o.business_operation_code) && !isPlanName(o.business_operation_code))
    throw pushErrors.invalid("'business_operation_code' value is invalid.")
  return {
    sendno,
    timeToLive,
    overrideMsgId,
    testModel: o.test_model === true,
    plan: absent(o.business_operation_code) ? undefined : (o.business_operation_code as string),
  }
}

/**
 * A push plan's name: letters, digits and `_`, not starting with `_`, at most 50 characters (the
 * vendor's international twin documents these rules for the same API: jpush-wire.md "Push plans").
 */
export function isPlanName(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9_]{0,49}$/.test(value)
}

export function parseSmsMessage(value: unknown): SmsFallback {
  if (!isObject(value)) throw pushErrors.invalid('sms_message must be an object')
  const s = value
  if (absent(s.delay_time)) throw pushErrors.missing('sms_message.delay_time')
  if (!isIntIn(s.delay_time, 0, PUSH_LIMITS.maxSmsDelay))
    throw pushErrors.invalid('sms_message.delay_time is invalid')
  if (absent(s.temp_id) && absent(s.content)) throw pushErrors.missing('sms_message.temp_id')
  if (!absent(s.temp_id) && !isIntIn(s.temp_id, 1, 2 ** 31 - 1))
    throw pushErrors.invalid('sms_message.temp_id is invalid')
  if (
    !absent(s.content) &&
    (typeof s.content !== 'string' || [...s.content].length > PUSH_LIMITS.maxSmsContent)
  ) {
    throw pushErrors.invalid('sms_message.content is invalid')
  }
  if (!absent(s.signid) && !isIntIn(s.signid, 0, 2 ** 31 - 1))
    throw pushErrors.invalid('sms_message.signid is invalid')
  const tempPara: Record<string, string> = {}
  if (!absent(s.temp_para)) {
    if (!isObject(s.temp_para)) throw pushErrors.invalid('sms_message.temp_para must be an object')
    for (const [k, v] of Object.entries(s.temp_para)) {
      const text = v === null ? '' : typeof v === 'boolean' ? String(v) : scalarText(v)
      if (text === undefined) throw pushErrors.invalid(`sms_message.temp_para.${k} is invalid`)
      tempPara[k] = text
    }
  }
  return {
    delayTime: s.delay_time,
    tempId: absent(s.temp_id) ? undefined : (s.temp_id as number),
    tempPara,
    signId: absent(s.signid) || s.signid === 0 ? undefined : (s.signid as number),
    content: absent(s.content) ? undefined : (s.content as string),
  }
}

export const options = field({
  read: parseOptions,
  schema: z
    .object({
      sendno: z.int().describe('Echoed back as a string.'),
      time_to_live: z
        .int()
        .describe('Seconds an offline device may still receive it; default 86400; 0: online only.'),
      override_msg_id: z
        .union([z.string(), z.int()])
        .describe('A 17-digit msg_id, as a string or a bare number.'),
      apns_production: z.boolean(),
      apns_collapse_id: z.string().max(64),
      big_push_duration: z.int().max(1400),
      classification: z.int(),
      test_model: z.boolean().describe('Only the app’s test devices are reached (POST /v3/test/model/add).'),
      business_operation_code: z
        .string()
        .describe('A push plan of the app (POST /v3/push_plan/create): the push is counted under it.'),
    })
    .partial()
    .catchall(z.unknown())
    .describe('§5.7; other keys the clients send are accepted.')
    .optional(),
  errors: [
    pushErrors.invalid("'time_to_live' value is invalid."),
    pushErrors.invalid("'business_operation_code' value is invalid."),
  ],
  // override_msg_id is a long (§5.7): Java and Ruby send it as a bare number.
  exactIntegers: ['override_msg_id'],
})

export const smsMessage = field({
  read: parseSmsMessage,
  schema: z
    .object({
      delay_time: z
        .int()
        .min(0)
        .max(PUSH_LIMITS.maxSmsDelay)
        .describe('Seconds; texts if the push has not arrived by then; 0: at once.'),
      temp_id: z.int(),
      temp_para: z.record(z.string(), z.unknown()).optional(),
      signid: z.int().optional(),
      content: z
        .string()
        .max(PUSH_LIMITS.maxSmsContent)
        .describe('Legacy text instead of a template.')
        .optional(),
    })
    .describe("SMS fallback to the device's mobile through the app's JSMS side (§5.6).")
    .optional(),
  errors: [pushErrors.invalid('sms_message must be an object'), pushErrors.missing('sms_message.delay_time')],
})

import { CERTIFICATE_LIMITS } from '../../admin/index.js'
import type { Config } from '../../config.js'
import { VENDOR_CHANNELS } from '../../device.js'
import { JOURNAL_BODY_CAP } from '../../http/journal.js'
import { TEST_DEVICE_LIMITS } from '../../push/device/index.js'
import { FILE_LIMITS } from '../../push/files/index.js'
import { IMAGE_LIMITS } from '../../push/images/index.js'
import { PLAN_LIMITS } from '../../push/plans/index.js'
import { SCHEDULE_LIMITS } from '../../push/schedules/index.js'
import { NOTIFICATION_PLATFORMS } from '../../push/send/index.js'
import { isWellFormedRid } from '../../push/values.js'
import { TEMPLATE_ID, TEMPLATE_LIMITS } from '../../seed/push-settings.js'
import { appPatchSchema } from '../../seed/seed-file.js'
import { SMS_LIMITS } from '../../sms/limits.js'
import { SIGN_LIMITS } from '../../sms/signs/index.js'
import type { DocumentTable, Row, Value } from '../../store/apps/app-document.js'
import { CALLBACK_STATES, CALLBACK_TYPES } from '../../store/callbacks/outbox.js'
import { importableMax, type SequenceName } from '../../store/engine/id-blocks.js'
import { EVENT_TYPES, EVENTS_HELD } from '../../store/events/log.js'
import { STRANGERS_KEPT } from '../../store/events/requests.js'
import { FAULT_LIMITS } from '../faults/input.js'

// What an imported row may hold: each column checked as the API checks what it stores (issue 33:
// an import is a write like any other). The rules are by table and column, one line each; a column
// without a line of its own is held to its SQLite type and a size no request body could exceed.
// test/sandbox/transfer-rules.test.ts checks every column of every table has a rule, so a table a
// migration adds must say here what its rows may hold.

/** Why a value is refused; undefined when it is fine. */
type Check = (v: Value) => string | undefined

/** The largest text a column holds unless it says otherwise: no request body is larger (1 MiB). */
const TEXT_MAX = 1024 * 1024
const SAFE = Number.MAX_SAFE_INTEGER

const isInt = (v: Value): v is number => typeof v === 'number' && Number.isSafeInteger(v)

const int =
  (min: number, max: number): Check =>
  v =>
    isInt(v) && v >= min && v <= max ? undefined : `must be a whole number from ${min} to ${max}`
const real =
  (min: number, max: number): Check =>
  v =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
      ? undefined
      : `must be a number from ${min} to ${max}`
const flag: Check = v => (v === 0 || v === 1 ? undefined : 'must be 0 or 1')
/** Epoch milliseconds (the app's clock, or real time). */
const time: Check = int(0, SAFE)
const text =
  (max = TEXT_MAX, pattern?: RegExp, what?: string): Check =>
  v => {
    if (typeof v !== 'string') return 'must be a string'
    if (v.length > max) return `must be at most ${max} characters`
    if (pattern && !pattern.test(v)) return `must be ${what ?? `like ${pattern}`}`
    return undefined
  }
const oneOf =
  (values: readonly (string | number)[]): Check =>
  v =>
    values.includes(v as string | number)
      ? undefined
      : `must be one of ${values.map(x => JSON.stringify(x)).join(', ')}`
const bytes =
  (max: number): Check =>
  v => {
    if (v === null || typeof v !== 'object') return 'must be {"base64": …}'
    return Buffer.byteLength(v.base64, 'base64') <= max ? undefined : `must be at most ${max} bytes`
  }
/** JSON text of an object (or array) the sandbox parses when it reads the row. */
const json =
  (
    shape: 'object' | 'array' | 'any',
    check?: (parsed: unknown) => string | undefined,
    max = TEXT_MAX,
  ): Check =>
  v => {
    if (typeof v !== 'string') return 'must be JSON text (a string)'
    if (v.length > max) return `must be at most ${max} characters`
    let parsed: unknown
    try {
      parsed = JSON.parse(v)
    } catch {
      return 'must be JSON text: it does not parse'
    }
    if (shape === 'object' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)))
      return 'must be the JSON text of an object'
    if (shape === 'array' && !Array.isArray(parsed)) return 'must be the JSON text of an array'
    return check?.(parsed)
  }
const nullable =
  (check: Check): Check =>
  v =>
    v === null ? undefined : check(v)
const strings = (parsed: unknown) =>
  (parsed as unknown[]).every(s => typeof s === 'string') ? undefined : 'must hold strings only'

/** An id of a global sequence: within the half of its range a document may hold (id-blocks.ts). */
const id = (sequence: SequenceName, min = 1): Check => int(min, importableMax(sequence))
/** An SMS msg_id as text (a task's recipient, a push's SMS fallback): digits, within the range. */
const msgIdText: Check = v => {
  if (typeof v !== 'string' || !/^[1-9][0-9]{0,15}$/.test(v)) return 'must be a msg_id: digits'
  return Number(v) <= importableMax('msg_id') ? undefined : `must be at most ${importableMax('msg_id')}`
}
/** A push msg_id: `181` and the 14-digit counter (push/send/delivery/dispatch.ts), within the range. */
const pushMsgId: Check = v => {
  if (typeof v !== 'string' || !/^181[0-9]{14}$/.test(v)) return 'must be a push msg_id: 181 and 14 digits'
  return Number(v.slice(3)) <= importableMax('push_msg_id')
    ? undefined
    : `must be at most 181${String(importableMax('push_msg_id')).padStart(14, '0')}`
}
/** A per-app seq (events, lists): an exact number, with room left for the app's own. */
const seq: Check = int(1, Math.floor(SAFE / 2))
const mobile = text(20, /^\+?[0-9]{5,20}$/, 'a mobile: digits')
const rid: Check = v =>
  typeof v === 'string' && isWellFormedRid(v) ? undefined : 'must be 1 to 64 letters or digits'
const platform = oneOf(NOTIFICATION_PLATFORMS)
const uuidLike = text(64, /^[A-Za-z0-9-]{1,64}$/, 'an id of letters, digits and -')
/** An http(s) URL, as a push's callback.url or an image's address. */
const url = (max = 2048): Check => text(max, /^https?:\/\/[^\s]+$/i, 'an http(s) URL')
const settingsSchema = appPatchSchema.shape.settings.unwrap()
const settings = json('object', parsed => {
  const result = settingsSchema.safeParse(parsed)
  if (result.success) return undefined
  const issue = result.error.issues[0]
  return `${issue?.path.join('.') || 'settings'}: ${issue?.message}`
})
const SURFACES = ['sms', 'push', 'sandbox']
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']
/** The journal keeps a body's first characters and says how long the whole was (http/journal.ts). */
const journalBody = nullable(text(JOURNAL_BODY_CAP + 64))

/** Per table, per column. `app_key` and the local columns are not in a document. */
export const COLUMN_RULES: Record<string, Record<string, Check>> = {
  apps: {
    blacklisted: flag,
    sms_enabled: flag,
    ip_whitelist: json('array', strings),
    sensitive_words: json('array', strings),
    // Checked as PATCH /_sandbox/app checks it (the vendor's echo) by the import itself.
    callback_url: nullable(url()),
    settings,
    balance: nullable(int(0, SAFE)),
    voice: nullable(int(0, SAFE)),
    industry: nullable(int(0, SAFE)),
    market: nullable(int(0, SAFE)),
    created_at: time,
  },
  app_activity: { last_request_at: nullable(time), requests: int(0, SAFE), refusals: int(0, SAFE) },
  app_certificates: {
    environment: oneOf(['dev', 'pro']),
    file_name: text(255),
    bytes: bytes(CERTIFICATE_LIMITS.fileBytes),
    subject: text(1024),
    bundle_id: nullable(text(255)),
    not_after: time,
    uploaded_at: time,
  },
  app_profiles: {
    app_name: text(255),
    android_package: text(255),
    group_name: nullable(text(255)),
    created_at: time,
  },
  callbacks: {
    id: id('callback_id'),
    type: oneOf(CALLBACK_TYPES),
    data: json('object'),
    state: oneOf(CALLBACK_STATES),
    attempts: int(0, 100),
    next_attempt_at: nullable(time),
    created_at: time,
    url: nullable(url()),
    seq: nullable(seq),
  },
  callback_attempts: {
    callback_id: id('callback_id'),
    attempt: int(0, 100),
    url: text(2048),
    at: time,
    status_code: nullable(int(100, 599)),
    error: nullable(text(4096)),
  },
  codes: {
    msg_id: id('msg_id'),
    mobile,
    code: text(16, /^[0-9A-Za-z]{1,16}$/, 'a code of letters or digits'),
    expires_at: time,
    verified_at: nullable(time),
  },
  events: { seq, type: oneOf(EVENT_TYPES), at: time, data: json('any') },
  messages: {
    msg_id: id('msg_id'),
    mobile,
    kind: oneOf(['code', 'voice_code', 'template']),
    temp_id: nullable(int(1, 2 ** 31 - 1)),
    temp_type: nullable(int(0, 3)),
    sign_id: nullable(int(0, 2 ** 31 - 1)),
    temp_para: nullable(json('object')),
    content: text(4 * SMS_LIMITS.maxContentLength),
    units: int(0, 100),
    tag: nullable(text(SMS_LIMITS.maxTagLength * 4)),
    schedule_id: nullable(uuidLike),
    created_at: time,
    seq: nullable(seq),
  },
  push_clicks: {
    msg_id: pushMsgId,
    registration_id: rid,
    platform,
    kind: oneOf(['notification', 'message']),
    clicked_at: time,
  },
  push_deliveries: {
    msg_id: pushMsgId,
    registration_id: rid,
    platform,
    status: oneOf(['pending', 'delivered', 'expired']),
    expires_at: time,
    delivered_at: nullable(time),
    sms_due_at: nullable(time),
    sms_msg_id: nullable(msgIdText),
    sms_error: nullable(int(0, 99_999)),
    seq: nullable(seq),
    alias: nullable(text(256)),
    // How it went, or why it did not (push/send/delivery/route.ts).
    route: nullable(oneOf(['jpush', ...VENDOR_CHANNELS, 'apns-production', 'apns-development'])),
    reason: nullable(
      oneOf([
        'wrong-apns-environment',
        'vendor-quota-exhausted',
        'offline-no-vendor-route',
        'device-offline',
        'dropped-classification',
      ]),
    ),
  },
  push_device_sessions: { registration_id: rid, platform, online_at: time, offline_at: nullable(time) },
  push_device_tags: { registration_id: rid, tag: text(256) },
  push_devices: {
    registration_id: rid,
    platform,
    alias: nullable(text(256)),
    mobile: nullable(mobile),
    online: flag,
    last_online_at: nullable(time),
    created_at: time,
    channel: nullable(oneOf(VENDOR_CHANNELS)),
    apns_environment: nullable(oneOf(['development', 'production'])),
  },
  push_vendor_quota: {
    day_key: text(10, /^\d{4}-\d{2}-\d{2}$/, 'a day, yyyy-MM-dd'),
    vendor: oneOf(['xiaomi', 'oppo', 'vivo']),
    kind: oneOf(['system', 'operation']),
    used: int(0, SAFE),
  },
  push_files: {
    file_id: text(128, /^[A-Za-z0-9-]+$/, 'a file id of letters, digits and -'),
    type: oneOf(['alias', 'registration_id']),
    file_name: text(FILE_LIMITS.fileNameChars),
    entries: text(FILE_LIMITS.fileBytes * 2),
    entry_count: int(0, FILE_LIMITS.entries),
    ttl: nullable(int(1, FILE_LIMITS.maxTtlHours)),
    created_at: time,
    expires_at: time,
  },
  push_image_files: {
    media_id: text(128),
    channel: text(16, /^[a-z]+$/, 'a channel name'),
    file_name: text(255),
    content_type: oneOf(['image/png', 'image/jpeg']),
    width: nullable(int(0, 100_000)),
    height: nullable(int(0, 100_000)),
    bytes: bytes(IMAGE_LIMITS.fileBytes),
    uploaded_at: time,
  },
  push_images: {
    media_id: text(128, /^jgmedia-[0-9]-[A-Za-z0-9-]+$/, 'a media_id (jgmedia-<type>-<id>)'),
    image_type: int(1, 3),
    source: oneOf(['url', 'file']),
    image_url: nullable(text(IMAGE_LIMITS.urlChars)),
    channels: json('object'),
    created_at: time,
    updated_at: time,
    expires_at: time,
  },
  push_plans: {
    name: text(255),
    description: text(PLAN_LIMITS.descriptionChars),
    send_source: int(0, 1000),
    created_at: time,
  },
  push_schedule_firings: {
    schedule_id: uuidLike,
    due_at: time,
    msg_id: v => (v === '' ? undefined : pushMsgId(v)),
    error_code: int(0, 99_999),
    error_message: text(4096),
  },
  push_schedules: {
    schedule_id: uuidLike,
    cid: nullable(text(256)),
    name: text(SCHEDULE_LIMITS.nameBytes),
    enabled: flag,
    kind: oneOf(['single', 'periodical']),
    trigger_json: json('object'),
    push_json: json('object'),
    ends_at: time,
    next_due_at: nullable(time),
    deleted_at: nullable(time),
    created_at: time,
    updated_at: time,
  },
  push_templates: {
    template_id: text(32, TEMPLATE_ID, 'letters and digits'),
    name: text(TEMPLATE_LIMITS.nameChars),
    params: json('array', strings),
    push: json('object'),
    created_at: time,
    updated_at: time,
  },
  push_test_devices: {
    registration_id: rid,
    device_name: text(TEST_DEVICE_LIMITS.deviceNameChars),
    created_at: time,
  },
  pushes: {
    msg_id: pushMsgId,
    sendno: text(64),
    cid: nullable(text(256)),
    payload: json('object'),
    broadcast: flag,
    day_key: text(10, /^\d{4}-\d{2}-\d{2}$/, 'a day: yyyy-MM-dd'),
    time_to_live: int(0, SAFE),
    created_at: time,
    withdrawn_at: nullable(time),
    fan_out: nullable(json('object')),
    fan_out_audience: nullable(json('any')),
    group_msgid: nullable(text(64)),
    plan: nullable(text(255)),
    seq: nullable(seq),
  },
  replies: {
    id: id('reply_id'),
    mobile,
    content: text(4 * SMS_LIMITS.maxContentLength),
    reply_at: time,
    pulled_at: nullable(time),
    seq: nullable(seq),
  },
  reports: {
    msg_id: id('msg_id'),
    mobile,
    status: int(0, 99_999),
    report_at: time,
    notify: flag,
    pulled_at: nullable(time),
    seq: nullable(seq),
  },
  requests: {
    seq,
    at: time,
    real_at: time,
    method: oneOf(METHODS),
    path: text(8192),
    query: nullable(text(8192)),
    surface: oneOf(SURFACES),
    status: int(100, 599),
    code: nullable(int(0, SAFE)),
    message: nullable(text(4096)),
    reason: nullable(text(4096)),
    ids: nullable(json('object')),
    duration_ms: real(0, SAFE),
    client: text(256),
    user_agent: nullable(text(4096)),
    operator: flag,
    authenticated: flag,
    request_body: journalBody,
    answer_body: journalBody,
    warnings: nullable(json('array')),
  },
  review_events: {
    // Renumbered by the import: nothing refers to it (a review's result until its callback).
    id: int(1, SAFE),
    kind: oneOf(['template', 'sign']),
    ref_id: int(1, 2 ** 31 - 1),
    status: oneOf([1, 2]),
    refuse_reason: nullable(text(4096)),
    at: time,
  },
  schedule_recipients: {
    schedule_id: uuidLike,
    position: int(0, SMS_LIMITS.maxRecipients),
    msg_id: msgIdText,
    mobile,
    temp_para: json('object'),
    error_code: nullable(int(0, 99_999)),
    error_message: nullable(text(4096)),
  },
  schedules: {
    schedule_id: uuidLike,
    batch: flag,
    temp_id: int(1, 2 ** 31 - 1),
    sign_id: nullable(int(0, 2 ** 31 - 1)),
    tag: nullable(text(SMS_LIMITS.maxTagLength * 4)),
    send_at: time,
    status: oneOf(['pending', 'sent', 'deleted']),
    created_at: time,
    updated_at: time,
    sent_at: nullable(time),
  },
  signs: {
    sign_id: id('sign_id'),
    sign: text(SIGN_LIMITS.maxLength * 4),
    type: nullable(int(0, 100)),
    remark: text(SIGN_LIMITS.maxRemarkLength * 4),
    images: int(0, SIGN_LIMITS.maxParts),
    status: int(0, 2),
    is_default: flag,
    refuse_reason: nullable(text(4096)),
    review_at: nullable(time),
    created_at: time,
    updated_at: time,
  },
  templates: {
    temp_id: id('temp_id'),
    template: text(SMS_LIMITS.maxTemplateLength),
    type: int(1, 3),
    ttl: int(0, SMS_LIMITS.maxTtlSeconds),
    remark: text(SMS_LIMITS.maxRemarkLength),
    status: int(0, 2),
    refuse_reason: nullable(text(4096)),
    review_at: nullable(time),
    created_at: time,
    updated_at: time,
  },
  unsubscribed: { mobile, created_at: time },
}

/** A cap on some rows of a table only: the journal keeps its own entries and strangers' apart. */
const ownEntries = { table: 'requests', counts: (row: Row) => row.authenticated !== 0 }
const strangersEntries = {
  table: 'requests',
  counts: (row: Row) => row.authenticated === 0,
  what: 'of strangers',
}

export interface RowCap {
  max: number
  why: string
  /** The table and the rows the cap counts, when not every row of the table named by its key. */
  of?: { table: string; counts: (row: Row) => boolean; what?: string }
}

/** How many rows of a table one app may hold: the API's own caps (docs/reliability.md). */
export function rowCaps(
  config: Pick<Config, 'maxDevicesPerApp' | 'pushDeliveriesKept' | 'journalMaxPerApp'>,
): Record<string, RowCap> {
  return {
    push_devices: { max: config.maxDevicesPerApp, why: 'MAX_DEVICES_PER_APP' },
    push_deliveries: { max: config.pushDeliveriesKept, why: 'PUSH_DELIVERIES_KEPT_PER_APP' },
    requests: { max: config.journalMaxPerApp, why: 'JOURNAL_MAX_PER_APP', of: ownEntries },
    'requests of strangers': { max: STRANGERS_KEPT, why: "the strangers' ring", of: strangersEntries },
    events: { max: EVENTS_HELD, why: 'the event log of an app' },
    push_templates: { max: TEMPLATE_LIMITS.perApp, why: 'push templates per app' },
    push_plans: { max: PLAN_LIMITS.perApp, why: 'push plans per app' },
    push_test_devices: { max: TEST_DEVICE_LIMITS.perApp, why: 'test devices per app' },
    push_images: { max: IMAGE_LIMITS.imagesPerApp, why: 'images per app' },
    push_files: { max: FILE_LIMITS.filesPerApp, why: 'files per app' },
    push_schedules: { max: SCHEDULE_LIMITS.activeTasks * 20, why: 'push schedule tasks per app' },
    apps: { max: 1, why: 'the one row of the app' },
    app_activity: { max: 1, why: 'the one row of the app' },
    app_profiles: { max: 1, why: 'the one row of the app' },
  }
}

/** The faults a document may arm: as many as POST /_sandbox/faults lets an app arm. */
export const FAULTS_MAX = FAULT_LIMITS.perApp

/** The first column of a row that breaks its rule (the column, and why), or undefined. */
export function checkRow(table: DocumentTable, row: Row): { column: string; why: string } | undefined {
  const rules = COLUMN_RULES[table.name] ?? {}
  for (const column of table.columns) {
    if (!table.exported.includes(column.name)) continue
    const given = Object.hasOwn(row, column.name)
    const v = given ? row[column.name] : undefined
    if (v === undefined || v === null) {
      // Left out: SQLite's default; null where the column takes it.
      if (column.notNull && (given || column.default === null))
        return { column: column.name, why: 'required' }
      continue
    }
    const rule = rules[column.name] ?? typeRule(column.type)
    const why = rule(v)
    if (why) return { column: column.name, why }
  }
  return undefined
}

/** A column without a rule of its own: its SQLite type, at most TEXT_MAX. */
function typeRule(type: string): Check {
  if (type.includes('INT')) return int(-SAFE, SAFE)
  if (type === 'REAL') return real(-Number.MAX_VALUE, Number.MAX_VALUE)
  if (type === 'BLOB') return bytes(TEXT_MAX)
  return text()
}

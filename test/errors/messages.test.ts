import { describe, expect, it } from 'vitest'
import { adminErrors } from '../../src/admin/errors.js'
import { ApiError } from '../../src/errors.js'
import { deviceErrors, pushErrors, reportErrors } from '../../src/push/errors.js'
import { scheduleErrors } from '../../src/push/schedules/rules.js'
import { smsErrors } from '../../src/sms/errors.js'
import { JSMS_TABLE } from './jsms-table.js'

// Issue 29, point 11: every code the sandbox defines, against the vendor's table. JSMS: the
// seed's table (sms-service.md §7) is the messages, word for word. JPush: its tables give
// meanings, and the live service's literal only where a transcript, test or client shows one;
// each row says which, and where the sandbox's words differ, why (docs/fidelity.md, "Every message
// against the vendor's table"). A changed message, or a new code without its row, fails here.

type Row = {
  status: number
  /** The vendor's literal message, or `~meaning` where only a meaning is documented. */
  vendor: string
  source: string
  /** The sandbox's message (with its sample argument, for those that take one). */
  sandbox: string
}

const SAME = (status: number, message: string, source: string): Row => ({
  status,
  vendor: message,
  source,
  sandbox: message,
})

// Sample arguments for the factories that take one.
const SAMPLE: Record<string, unknown[]> = {
  missing: ['platform'],
  invalid: ['x is invalid'],
  tooBig: ['body'],
  unsupportedKey: ['build_id'],
  noTarget: ['18100000000000001'],
  unknownMedia: ['m1'],
  wrongMediaType: ['large_icon', 2, 1],
  imageTooBig: ['image', 1024],
  unknownPlan: ['p1'],
  tooManyImages: [3],
  unknownTemplate: ['t1'],
  someInvalid: [['r1']],
  notATestDevice: ['r1'],
  testDeviceTaken: ['r1'],
  tooFarBack: [60],
  certificateInvalid: ['x'],
  appRefused: ['x'],
}

const PUSH: Record<string, Row> = {
  internal: {
    status: 500,
    vendor: '~internal error',
    source: 'jpush-api.md §5.12',
    sandbox: 'Server internal error',
  },
  onlyPost: SAME(405, 'Only support HTTP POST method', 'vendor-answers.snap.txt; jpush-api.md §5.11 (1001)'),
  missing: {
    status: 400,
    vendor: '~required parameter missing',
    source: 'jpush-api.md §5.12',
    sandbox: 'Missing parameter: platform',
  },
  invalid: {
    status: 400,
    vendor: '~invalid value, its words vary (`The registration_id … is invalid!`)',
    source: 'jpush-api.md §5.11',
    sandbox: 'x is invalid',
  },
  authFailed: SAME(401, 'Authen failed', 'jpush-api.md §2 (php#85, php#51, java ExceptionTest)'),
  tooBig: {
    status: 400,
    vendor: '~body too large',
    source: 'jpush-api.md §5.12',
    sandbox: 'Message is too long: body',
  },
  appKeyInvalid: SAME(400, 'app_key does not exist', 'jpush-api.md §2 (dt comment)'),
  unsupportedKey: {
    status: 400,
    vendor: '~unsupported key in push object',
    source: 'jpush-api.md §5.12',
    sandbox: 'Unsupported key in push object: build_id',
  },
  noTarget: SAME(
    400,
    'cannot find user by this audience or has been inactive for more than 255 days',
    'jpush-api.md §5.13',
  ),
  httpsOnly: SAME(404, 'Only support HTTPS request', 'jpush-api.md §5.11'),
  timeout: {
    status: 503,
    vendor: '~internal service timeout',
    source: 'jpush-api.md §5.12',
    sandbox: 'Internal service timeout',
  },
  rateLimited: SAME(429, 'Rate limit exceeded', 'jpush-api.md §2 (2002)'),
  blacklisted: SAME(403, 'The appKey is in black list.', 'jpush-api.md §2 (2003)'),
  illegalIp: {
    status: 403,
    vendor: '~caller IP not on whitelist',
    source: 'jpush-api.md §5.12',
    sandbox: 'The request ip is not in the ip whitelist of this app',
  },
  tooMuchVolume: {
    status: 403,
    vendor: '~send volume beyond a reasonable range',
    source: 'jpush-api.md §5.12',
    sandbox: 'Message volume beyond a reasonable range',
  },
  notVip: {
    status: 403,
    vendor: '~not a VIP',
    source: 'jpush-api.md §5.12',
    sandbox: 'This API is only available to VIP apps',
  },
  noFileGroupPush: {
    status: 403,
    vendor: '~the developer has no right to VIP file group push (code only)',
    source: 'https://docs.jiguang.cn/jpush/server/push/rest_api_v3_file (since 2020-08-11)',
    sandbox: 'The developer has no permission of VIP file group push',
  },
  noPermission: {
    status: 403,
    vendor: '~no permission for this API',
    source: 'jpush-api.md §5.12',
    sandbox: 'No permission to use this API',
  },
  broadcastLimit: {
    status: 403,
    vendor: '~broadcast daily limit',
    source: 'jpush-api.md §5.12',
    sandbox: 'Broadcast push times exceed the limit of today',
  },
  unknownMedia: {
    status: 400,
    vendor: '~1003 invalid value',
    source: 'docs/jpush-wire.md',
    sandbox: 'media_id m1 does not exist',
  },
  wrongMediaType: {
    status: 400,
    vendor: '~1003 invalid value',
    source: 'docs/jpush-wire.md',
    sandbox: 'large_icon takes an image of image_type 2, not 1',
  },
  imageTooBig: {
    status: 400,
    vendor: '~1005 too large',
    source: 'docs/jpush-wire.md',
    sandbox: 'Message is too long: image is over 1024 bytes',
  },
  unknownPlan: {
    status: 400,
    vendor: '~1003 invalid value',
    source: 'docs/jpush-wire.md',
    sandbox: 'business_operation_code p1 is not a push plan of this app',
  },
  tooManyImages: {
    status: 400,
    vendor: '~1012 limit exceeded',
    source: 'jpush-api.md §5.12',
    sandbox: 'an app keeps at most 3 images at once: they go 30 days after their last change',
  },
  vendorQuota: {
    status: 400,
    vendor: '~提示厂商配额不足 (1012)',
    source: 'cav options.go:184-186',
    sandbox: 'vendor quota is insufficient for ospush distribution',
  },
  unknownTemplate: {
    status: 400,
    vendor: '~1003 invalid value',
    source: 'docs/jpush-wire.md',
    sandbox: 'template id t1 does not exist',
  },
}

const REPORT: Record<string, Row> = {
  internal: {
    status: 500,
    vendor: '~internal error',
    source: 'jpush-api.md §6.6',
    sandbox: 'Server internal error',
  },
  authFailed: SAME(401, 'Basic authentication failed', 'jpush-api.md §2 (3001)'),
  invalid: {
    status: 400,
    vendor: '~invalid parameter',
    source: 'jpush-api.md §6.6',
    sandbox: 'x is invalid',
  },
  notJson: SAME(400, 'Parameter is invalid, not a valid JSON format', 'jpush-api.md §6.2 (py PR#57)'),
  timeUnitMismatch: {
    status: 400,
    vendor: '~time_unit and start do not match',
    source: 'jpush-api.md §6.6',
    sandbox: 'time_unit and start do not match',
  },
  tooFarBack: {
    status: 400,
    vendor: '~only the last 60 days can be queried',
    source: 'jpush-api.md §6.6',
    sandbox: 'Only the statistics of the last 60 days can be queried',
  },
}

const DEVICE: Record<string, Row> = {
  internal: {
    status: 500,
    vendor: '~internal error',
    source: 'jpush-api.md §7',
    sandbox: 'Server internal error',
  },
  missingAuth: {
    status: 401,
    vendor: '~no credentials',
    source: 'jpush-api.md §2 (7001)',
    sandbox: 'Basic authentication is missing',
  },
  invalid: {
    status: 400,
    vendor: '~invalid request parameter',
    source: 'jpush-api.md §7',
    sandbox: 'x is invalid',
  },
  authFailed: {
    status: 401,
    vendor: '~wrong credentials',
    source: 'jpush-api.md §2 (7004)',
    sandbox: 'Basic authentication failed',
  },
  appKeyInvalid: {
    status: 400,
    vendor: '~appkey does not exist',
    source: 'jpush-api.md §2 (7008)',
    sandbox: 'appkey does not exist',
  },
  someInvalid: {
    status: 400,
    vendor: '~some registration_ids invalid',
    source: 'jpush-api.md §7 (7013)',
    sandbox: 'Some registration_ids are invalid: r1',
  },
  aliasFull: {
    status: 400,
    vendor: '~alias bound to 10 devices',
    source: 'jpush-api.md §7 (7015)',
    sandbox: 'The alias is already bound to 10 devices',
  },
  notATestDevice: {
    status: 400,
    vendor: '~7002 invalid parameter',
    source: 'docs/jpush-wire.md',
    sandbox: 'registration_id r1 is not a test device',
  },
  testDeviceTaken: {
    status: 400,
    vendor: '~7002 invalid parameter',
    source: 'docs/jpush-wire.md',
    sandbox: 'registration_id r1 is already a test device',
  },
  busy: {
    status: 503,
    vendor: '~system busy',
    source: 'jpush-api.md §7 (7030, docs2019)',
    sandbox: 'System busy, please retry later',
  },
}

const SCHEDULE: Record<string, Row> = {
  invalid: {
    status: 400,
    vendor: '~invalid',
    source: 'jpush-api.md §8',
    sandbox: 'The schedule-task is invalid: x is invalid',
  },
  authFailed: SAME(401, 'Basic authentication failed.', 'jpush-api.md §2 (8101)'),
  notFound: {
    status: 404,
    vendor: '~task does not exist',
    source: 'jpush-api.md §8',
    sandbox: "Request schedule operation doesn't exist",
  },
  internal: {
    status: 500,
    vendor: '~internal error',
    source: 'jpush-api.md §8',
    sandbox: 'Server internal error.',
  },
  timeout: SAME(503, 'Execute action timeout, please try later again', 'rest_api_push_schedule (8203)'),
}

const ADMIN: Record<string, Row> = {
  internal: {
    status: 500,
    vendor: '~system error',
    source: 'docs/jpush-wire.md Admin API (10)',
    sandbox: 'System error',
  },
  certificateExists: {
    status: 200,
    vendor: '~certificate already exists',
    source: 'docs/jpush-wire.md (1010)',
    sandbox: 'certificate already exists',
  },
  certificateInvalid: {
    status: 200,
    vendor: 'certificate invalid',
    source: 'docs/jpush-wire.md (1012 example)',
    sandbox: 'certificate invalid: x',
  },
  appKeyInvalid: {
    status: 200,
    vendor: '~appkey invalid',
    source: 'docs/jpush-wire.md (1013)',
    sandbox: 'appkey is invalid',
  },
  noCertificateFile: {
    status: 200,
    vendor: '~no certificate file in the request',
    source: 'docs/jpush-wire.md (1014)',
    sandbox: 'no certificate file in the request',
  },
  deleteFailed: SAME(200, 'app delete fail', 'docs/jpush-wire.md (1015 example)'),
  onlyPost: SAME(405, 'Get HTTP method is not allowed', 'docs/jpush-wire.md (4001)'),
  missing: {
    status: 400,
    vendor: 'Request parameter {param} is null or empty',
    source: 'docs/jpush-wire.md (4002)',
    sandbox: 'Request parameter platform is null or empty',
  },
  invalid: {
    status: 400,
    vendor: '~a parameter is invalid',
    source: 'docs/jpush-wire.md (4003)',
    sandbox: 'Request parameter x is invalid is invalid',
  },
  appRefused: {
    status: 400,
    vendor: '~4003 a parameter is invalid',
    source: 'docs/jpush-wire.md (4003)',
    sandbox: 'Request refused: x',
  },
  devKeyUnknown: SAME(401, 'Authentication failed: dev_key does not exist', 'docs/jpush-wire.md (4004)'),
  devSecretWrong: SAME(
    401,
    'Authentication failed: dev_key and dev_secret are not matched',
    'docs/jpush-wire.md (4005)',
  ),
  badAuthorization: SAME(
    401,
    'Authentication failed: it is not a valid authorization string',
    'docs/jpush-wire.md (4006)',
  ),
  noPermission: {
    status: 401,
    vendor: '~no permission',
    source: 'docs/jpush-wire.md (4007)',
    sandbox: 'Authentication failed: the account has no permission for this API',
  },
}

const make = (name: string, factory: unknown): ApiError => {
  const f = factory as (...args: unknown[]) => ApiError
  return f(...(SAMPLE[name] ?? []))
}

describe.each([
  ['push', pushErrors, PUSH],
  ['report', reportErrors, REPORT],
  ['device', deviceErrors, DEVICE],
  ['schedule', scheduleErrors, SCHEDULE],
  ['admin', adminErrors, ADMIN],
] as const)('the JPush %s table', (_name, table, rows) => {
  it('has a row for every code the sandbox defines', () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(rows).sort())
  })
  it.each(Object.keys(rows))('%s: the status and message the row records', key => {
    const row = rows[key]!
    const e = make(key, (table as Record<string, unknown>)[key])
    expect(e).toBeInstanceOf(ApiError)
    expect([e.status, e.message]).toEqual([row.status, row.sandbox])
    // Where the vendor's literal is known, it is the sandbox's message.
    if (!row.vendor.startsWith('~') && !row.vendor.includes('{'))
      expect(e.message.startsWith(row.vendor)).toBe(true)
  })
})

describe('the JSMS table', () => {
  it('every code the sandbox defines is the seed table’s status and message, word for word', () => {
    const byCode = new Map(JSMS_TABLE.map(([code, status, message]) => [code, [status, message]]))
    const defined = Object.entries(smsErrors).map(([key, f]) => make(key, f))
    for (const e of defined)
      expect([e.code, e.status, e.message]).toEqual([e.code, ...(byCode.get(e.code) ?? [])])
    // …and every code of the table is defined.
    expect(new Set(defined.map(e => e.code))).toEqual(new Set(byCode.keys()))
  })
})

import { adminErrors } from '../../admin/index.js'
import { ApiError } from '../../errors.js'
import { groupOf } from '../../push/dialect.js'
import { deviceErrors, pushErrors, reportErrors } from '../../push/errors.js'
import { scheduleErrors } from '../../push/schedules/index.js'
import { smsErrors } from '../../sms/errors.js'

// Which codes a fault may answer on which path: the documented codes of the surface (the vendor
// host) that owns it. A JSMS code on a /v3 path, or a device code on /v3/push, could never come
// from the real service there. A new vendor table (JPush schedules…) is one more entry below.

type Table = Record<string, unknown>

/** Each documented error of a table by code, as the table makes it without arguments. */
function codesOf(tables: Table[]): Map<number, ApiError> {
  const codes = new Map<number, ApiError>()
  for (const table of tables)
    for (const make of Object.values(table)) {
      if (typeof make !== 'function') continue
      try {
        const error = (make as () => ApiError)()
        // A maker whose message needs its argument (`Missing parameter: …`) lends only its status.
        const whole = error.message !== '' && !error.message.includes('undefined')
        const shown = new ApiError(error.status, error.code, whole ? error.message : 'injected fault')
        if (!codes.has(error.code)) codes.set(error.code, shown)
      } catch {
        // A maker that needs its argument (a list of ids): its code is documented by a sibling.
      }
    }
  return codes
}

// The standing and rate codes every /v3 host answers (push/dialect.ts), and 2006: the VIP-only
// APIs are on every host (device status, the report host's statistics, test devices…).
const SHARED_V3 = {
  rateLimited: pushErrors.rateLimited,
  blacklisted: pushErrors.blacklisted,
  illegalIp: pushErrors.illegalIp,
  notVip: pushErrors.notVip,
  noPermission: pushErrors.noPermission,
}

export interface Surface {
  name: string
  codes: Map<number, ApiError>
}

const SURFACES = {
  sms: { name: 'JSMS (/v1)', codes: codesOf([smsErrors]) },
  push: { name: 'JPush push (/v3/push…)', codes: codesOf([pushErrors]) },
  device: {
    name: 'JPush device (/v3/devices, /v3/tags, /v3/aliases)',
    codes: codesOf([deviceErrors, SHARED_V3]),
  },
  report: {
    name: 'JPush report (/v3/received, /v3/status, /v3/messages…)',
    codes: codesOf([reportErrors, SHARED_V3]),
  },
  schedule: {
    name: 'JPush schedules (/v3/schedules, /v3/push/schedules)',
    codes: codesOf([scheduleErrors, SHARED_V3]),
  },
  admin: { name: 'JPush Admin API (/admin/v1)', codes: codesOf([adminErrors]) },
} satisfies Record<string, Surface>

const EVERY = Object.values(SURFACES)

/** The surface owning a path under /v1, /v3 or /admin/v1; undefined for `*`, which may answer any of them. */
export function surfaceOf(path: string): Surface | undefined {
  if (path === '*') return undefined
  if (path.startsWith('/admin/')) return SURFACES.admin
  return path.startsWith('/v1') ? SURFACES.sms : SURFACES[groupOf(path)]
}

/** The documented error with this code: of the path's surface, or of any surface for `*`. */
export function documentedError(code: number, surface: Surface | undefined): ApiError | undefined {
  if (surface) return surface.codes.get(code)
  for (const s of EVERY) if (s.codes.has(code)) return s.codes.get(code)
  return undefined
}

/** The surface documenting this code, when it is not `surface`: a code that cannot come from it. */
export function foreignSurface(code: number, surface: Surface | undefined): Surface | undefined {
  if (!surface || surface.codes.has(code)) return undefined
  return EVERY.find(s => s.codes.has(code))
}

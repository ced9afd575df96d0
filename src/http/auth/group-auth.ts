import type { FastifyRequest } from 'fastify'
import type { Clock } from '../../clock.js'
import { type ApiError, isApiError } from '../../errors.js'
import type { WindowState } from '../../limits/fixed-window.js'
import { isWellFormedCredential } from '../../seed/provision.js'
import type { Store } from '../../store/index.js'
import { safeEqual, type Tenant, tenantOf } from '../../tenancy.js'
import type { Dialect } from '../dialect.js'

/** A member app of the group, and why it cannot push now (its standing, its rate window). */
export interface GroupMember {
  tenant: Tenant
  refusal: ApiError | undefined
}

export interface GroupLogin {
  groupKey: string
  members: GroupMember[]
}

const PREFIX = 'group-'

/**
 * `group-<groupKey>:<groupMasterSecret>` (jpush-api.md §2): the apps that name this group and its
 * secret in their settings (push/send/groups-table.ts). Wrong or unknown: the surface's 401 (1004); a
 * username without the prefix is not a group's. Each member is counted and checked as its own
 * login would be (its push window, its standing), and what refuses it stays its own: the group
 * push answers it in that app's entry. The answer's rate headers are the member window closest to
 * its limit.
 */
export function groupLogin(
  deps: { store: Store; clock: Clock },
  username: string,
  secret: string,
  req: FastifyRequest,
  dialect: Dialect,
  hooks: { authenticated?(req: FastifyRequest, tenant: Tenant): void },
  standing: ((tenant: Tenant) => void) | undefined,
): void {
  const groupKey = username.startsWith(PREFIX) ? username.slice(PREFIX.length) : ''
  if (!isWellFormedCredential(groupKey))
    throw username.startsWith(PREFIX) ? dialect.malformedKey() : dialect.authFailed()
  const apps = deps.store.pushGroups
    .members(groupKey)
    .map(key => deps.store.apps.get(key))
    .filter(app => app !== undefined)
  // Every member's secret is compared, so timing does not tell which of them match.
  const matching = apps.filter(app => safeEqual(String(groupSettingOf(app.settings)?.master_secret), secret))
  if (matching.length === 0) throw dialect.authFailed()
  let tightest: WindowState | undefined
  const members = matching.map(app => {
    const tenant = tenantOf(deps.clock, app)
    let refusal: GroupMember['refusal']
    try {
      hooks.authenticated?.(req, tenant)
      standing?.(tenant)
    } catch (err) {
      if (!isApiError(err)) throw err
      refusal = err
    }
    if (req.pushRate && (!tightest || req.pushRate.remaining < tightest.remaining)) tightest = req.pushRate
    return { tenant, refusal }
  })
  if (tightest) req.pushRate = tightest
  req.group = { groupKey, members }
}

function groupSettingOf(settings: Record<string, unknown>): { master_secret?: unknown } | undefined {
  const g = settings.group
  return typeof g === 'object' && g !== null ? (g as { master_secret?: unknown }) : undefined
}

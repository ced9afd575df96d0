import basicAuth from '@fastify/basic-auth'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, isApiError } from '../errors.js'
import { ProvisioningRefused } from '../limits/provisioning.js'
import { isWellFormedCredential } from '../seed/provision.js'
import { authenticateApp, safeEqual, type TenancyDeps, type Tenant } from '../tenancy.js'
import type { SmsDeps } from './context.js'
import { smsErrors } from './errors.js'

export interface AuthErrors {
  authFailed(): ApiError
  appInBlack(): ApiError
  illegalIp(): ApiError
  invalidAccount(): ApiError
  notEnabled?: () => ApiError
  /** An appKey that is not even well-formed (JPush 1008 / 7008); authFailed when absent. */
  malformedKey?: () => ApiError
}

export const smsAuthErrors: AuthErrors = {
  authFailed: smsErrors.authFailed,
  appInBlack: smsErrors.appInBlack,
  illegalIp: smsErrors.illegalIp,
  invalidAccount: smsErrors.invalidAccount,
  notEnabled: smsErrors.noSmsCodeAuth,
}

/** The app's standing, checked after its credentials: blacklist, frozen developer, IP, service. */
function checkTenant(deps: Pick<SmsDeps, 'store'>, tenant: Tenant, ip: string, errors: AuthErrors): void {
  const { app } = tenant
  if (app.blacklisted) throw errors.appInBlack()
  if (deps.store.apps.developer(app.devKey)?.frozen) throw errors.invalidAccount()
  if (app.ipWhitelist.length > 0 && !app.ipWhitelist.includes(normalizeIp(ip))) throw errors.illegalIp()
  if (errors.notEnabled && !app.smsEnabled) throw errors.notEnabled()
}

/** `::ffff:127.0.0.1` is 127.0.0.1 for a whitelist. */
function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip
}

/** What a surface adds to authentication (the /v3 rate windows, push/rate-limit.ts). */
export interface AuthHooks {
  /** The credentials are right; the app's standing is not checked yet. May throw (429). */
  authenticated?(req: FastifyRequest, tenant: Tenant): void
  /** The request did not authenticate, with `err`: answers `err` or another error. */
  refused?(req: FastifyRequest, err: Error): Error
}

export type AuthDeps = SmsDeps & Pick<TenancyDeps, 'provisioning'>

/**
 * HTTP Basic on every route of the surface, through @fastify/basic-auth: it throws, the surface's
 * error handler renders. A missing header is `missing auth` (400 50001), wrong credentials
 * `auth failed` (401 50002). Routes marked `auth: 'dev'` take devKey:devSecret.
 */
export async function registerBasicAuth(
  app: FastifyInstance,
  deps: AuthDeps,
  errors: AuthErrors,
  options: { standing?: boolean; hooks?: AuthHooks } = {},
): Promise<void> {
  const { standing = true, hooks = {} } = options
  await app.register(basicAuth, {
    authenticate: false,
    validate: async (username, password, req) => {
      try {
        if (req.routeOptions.config?.auth === 'dev')
          return developerLogin(deps, username, password, req, errors)
        const tenant = appLogin(deps, username, password, req, errors)
        req.tenant = tenant
        hooks.authenticated?.(req, tenant)
        if (standing) checkTenant(deps, tenant, req.ip, errors)
      } catch (err) {
        throw markServerFailure(err)
      }
    },
  })
  app.addHook('onRequest', (req, reply, done) => {
    if (req.is404 || req.routeOptions.config?.public) return done()
    app.basicAuth(req, reply, err => {
      // No tenant: the request did not get past its credentials (a standing refusal has one).
      const authenticated = (req.tenant as Tenant | undefined) !== undefined
      done(err && !authenticated && hooks.refused ? hooks.refused(req, err) : err)
    })
  })
}

function developerLogin(
  deps: AuthDeps,
  devKey: string,
  devSecret: string,
  req: FastifyRequest,
  errors: AuthErrors,
) {
  const dev = deps.store.apps.developer(devKey)
  const ok = safeEqual(dev?.devSecret ?? '\u0000', devSecret)
  if (!dev || !ok) throw errors.authFailed()
  if (dev.frozen) throw errors.invalidAccount()
  req.devKey = dev.devKey
}

/** The tenant of appKey:masterSecret (auto-provisioned within its caps), or the surface's 401. */
function appLogin(
  deps: AuthDeps,
  appKey: string,
  secret: string,
  req: FastifyRequest,
  errors: AuthErrors,
): Tenant {
  let tenant: Tenant | undefined
  try {
    tenant = authenticateApp(deps, appKey, secret, req.ip)
  } catch (err) {
    if (!(err instanceof ProvisioningRefused)) throw err
    if (err.log) req.log.warn({ appKey, client: req.ip }, err.message)
    const failed = errors.authFailed()
    throw new ApiError(failed.status, failed.code, `${failed.message}: ${err.message}`)
  }
  if (tenant) return tenant
  const malformed = errors.malformedKey && !isWellFormedCredential(appKey)
  throw malformed ? errors.malformedKey!() : errors.authFailed()
}

/**
 * @fastify/basic-auth labels whatever `validate` throws 401 unless it carries a statusCode. A
 * failure that is not the client's (the database, during a provisioning) must stay a server
 * error: it is marked 500 so that nothing downstream takes it for a refused login.
 */
function markServerFailure(err: unknown): unknown {
  if (isApiError(err) || !(err instanceof Error)) return err
  return Object.assign(err, { statusCode: 500 })
}

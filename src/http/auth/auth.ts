import basicAuth from '@fastify/basic-auth'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../../clock.js'
import type { Config } from '../../config.js'
import { ApiError, isApiError } from '../../errors.js'
import type { ProvisioningGuard } from '../../limits/provisioning.js'
import { ProvisioningRefused } from '../../limits/provisioning.js'
import { isWellFormedCredential } from '../../seed/provision.js'
import type { Store } from '../../store/index.js'
import { authenticateApp, safeEqual, type Tenant, tenantOf } from '../../tenancy.js'
import { firstValue } from '../body/query.js'
import type { Dialect } from '../dialect.js'
import { routeConfig } from '../route-config.js'
import { basicUser } from './basic-user.js'
import { groupLogin } from './group-auth.js'
import { createKnownCredentials } from './known-credentials.js'
import { checkAppScope, isOperatorLogin, type OperatorRefusals, operatorLogin } from './operator.js'
import { createSignInLimit } from './sign-in-limit.js'

/** The app's standing, checked after its credentials: blacklist, frozen developer, IP, service. */
function checkStanding(deps: { store: Store }, tenant: Tenant, ip: string, dialect: Dialect): void {
  const { app } = tenant
  if (app.blacklisted)
    throw dialect.blacklisted().because(`app ${app.appKey} is blacklisted (its setting \`blacklisted\`)`)
  if (deps.store.apps.developer(app.devKey)?.frozen)
    throw dialect.frozenDeveloper().because(`the app's developer ${app.devKey} is frozen`)
  if (app.ipWhitelist.length > 0 && !app.ipWhitelist.includes(normalizeIp(ip)))
    throw dialect
      .ipNotWhitelisted()
      .because(`${normalizeIp(ip)} is not in the app's ip_whitelist (${app.ipWhitelist.join(', ')})`)
  if (dialect.serviceNotEnabled && !app.smsEnabled)
    throw dialect.serviceNotEnabled().because('the app has SMS turned off (its setting `sms_enabled`)')
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

/** What authenticating a request reads: the apps, the settings, the clock, the provisioning caps. */
export type AuthDeps = { store: Store; config: Config; clock: Clock; provisioning: ProvisioningGuard }

/**
 * HTTP Basic on every route of the surface, through @fastify/basic-auth: it throws, the surface's
 * error handler renders. A missing header is the dialect's `missingAuth` (JSMS 400 50001), wrong
 * credentials its `authFailed` (401 50002); with `standing`, the app's standing is checked next.
 * Each kind of credential is its own function: appKey:masterSecret (appLogin, the default),
 * devKey:devSecret on routes marked `auth: 'dev'` (developerLogin) and, beside an app's, on
 * `auth: 'app-or-dev'` (a username that is a developer's devKey), a group's on `auth: 'group'`
 * (group-auth.ts), and, on a surface given `operator` (the control plane), the operator's
 * (operator.ts): for the app X-Sandbox-App names, or alone on routes marked `auth: 'operator'`.
 * That surface also slows failed sign-ins per client address (sign-in-limit.ts); elsewhere the
 * operator's user and password are credentials like any others, answered as the vendor answers them.
 */
export async function registerBasicAuth(
  app: FastifyInstance,
  deps: AuthDeps,
  dialect: Dialect,
  {
    standing,
    hooks = {},
    operator,
  }: { standing: boolean; hooks?: AuthHooks | undefined; operator?: OperatorRefusals | undefined },
): Promise<void> {
  const credentials = createKnownCredentials(appKey => deps.store.apps.get(appKey))
  const signIns = operator && createSignInLimit(deps.config.signInFailuresPerMinute, app.log)
  const refusedCode = dialect.authFailed().code
  /** The credentials are right: the request is the tenant's, if its standing allows. */
  const admit = (req: FastifyRequest, tenant: Tenant) => {
    if (operator) checkAppScope(req, tenant.app.appKey, operator)
    req.tenant = tenant
    hooks.authenticated?.(req, tenant)
    if (standing) checkStanding(deps, tenant, req.ip, dialect)
  }
  await app.register(basicAuth, {
    authenticate: false,
    // Synchronous, answering through `done`: nothing here waits, and a promise per request would
    // only add a turn of the microtask queue to every request (docs/performance.md).
    validate(username, password, req, _reply, done) {
      try {
        const auth = routeConfig(req)?.auth
        if (operator && isOperatorLogin(deps.config.operator, username, password))
          operatorLogin(deps, req, operator)
        else if (auth === 'dev') developerLogin(deps, username, password, req, dialect)
        else if (auth === 'app-or-dev' && deps.store.apps.developer(username)) {
          developerLogin(deps, username, password, req, dialect)
          routeConfig(req)?.developerAdmits?.(username)
        } else if (auth === 'group') {
          const checkOf = (t: Tenant) => checkStanding(deps, t, req.ip, dialect)
          groupLogin(deps, username, password, req, dialect, hooks, standing ? checkOf : undefined)
        } else {
          const tenant = appLogin(deps, username, password, req, dialect)
          credentials.remember(req.headers.authorization, tenant.app)
          admit(req, tenant)
        }
      } catch (err) {
        return done(markServerFailure(err) as Error)
      }
      done()
    },
  })
  app.addHook('onRequest', (req, reply, done) => {
    const config = routeConfig(req)
    if (req.is404 || config?.public) return done()
    const byToken = config?.tokenAuth
    const token = byToken && !req.headers.authorization ? queryToken(req) : undefined
    if (byToken && token !== undefined) {
      try {
        req.tenant = byToken(token)
      } catch (err) {
        return done(err as Error)
      }
      return done()
    }
    // A header that authenticated this app before, against its current row (known-credentials.ts).
    const appOnly = config?.auth === undefined || config.auth === 'app-or-dev' // the cache holds apps' alone
    const known = appOnly ? credentials.appOf(req.headers.authorization) : undefined
    if (known) {
      try {
        admit(req, tenantOf(deps.clock, known))
      } catch (err) {
        return done(markServerFailure(err) as Error)
      }
      return done()
    }
    // Credentials to check, from an address that failed too often this minute: unless they are
    // an app's (sign-in-limit.ts), they wait.
    const wait = signIns?.waitOf(req.ip, deps.clock.now())
    const user = wait ? basicUser(req.headers.authorization) : undefined
    if (operator && user !== undefined && !isWellFormedCredential(user)) {
      reply.header('retry-after', String(wait))
      return done(operator.tooManySignIns(wait!))
    }
    app.basicAuth(req, reply, err => {
      // No tenant: the request did not get past its credentials (a standing refusal has one).
      const authenticated = (req.tenant as Tenant | undefined) !== undefined
      if (signIns && err && !authenticated && isApiError(err) && err.code === refusedCode)
        signIns.failed(req.ip, deps.clock.now())
      done(err && !authenticated && hooks.refused ? hooks.refused(req, err) : err)
    })
  })
}

/** `?token=` of a route that takes one (tokenAuth): Basic credentials, when sent, come first. */
function queryToken(req: FastifyRequest): string | undefined {
  const query = req.query as Record<string, unknown> | undefined
  return firstValue(query?.token)
}

function developerLogin(
  deps: AuthDeps,
  devKey: string,
  devSecret: string,
  req: FastifyRequest,
  dialect: Dialect,
) {
  const dev = deps.store.apps.developer(devKey)
  const ok = safeEqual(dev?.devSecret ?? '\u0000', devSecret)
  if (!dev)
    throw (dialect.unknownDeveloper ?? dialect.authFailed)().because(`no developer with devKey ${devKey}`)
  if (!ok) throw dialect.authFailed().because(`the devSecret does not match developer ${devKey}'s`)
  if (dev.frozen) throw dialect.frozenDeveloper().because(`developer ${devKey} is frozen`)
  req.devKey = dev.devKey
}

/** The tenant of appKey:masterSecret (auto-provisioned within its caps), or the surface's 401. */
function appLogin(
  deps: AuthDeps,
  appKey: string,
  secret: string,
  req: FastifyRequest,
  dialect: Dialect,
): Tenant {
  let tenant: Tenant | undefined
  try {
    tenant = authenticateApp(deps, appKey, secret, req.ip)
  } catch (err) {
    if (!(err instanceof ProvisioningRefused)) throw err
    if (err.log) req.log.warn({ appKey, client: req.ip }, err.message)
    const failed = dialect.authFailed()
    throw new ApiError(failed.status, failed.code, `${failed.message}: ${err.message}`, {}, err.message)
  }
  if (tenant) return tenant
  if (!isWellFormedCredential(appKey))
    throw dialect.malformedKey().because(`the appKey ${JSON.stringify(appKey)} is not 24 letters or digits`)
  throw dialect.authFailed().because(whyNotAuthenticated(deps, appKey, secret))
}

/** Which part of appKey:masterSecret is wrong, for the journal and the log (never the answer). */
function whyNotAuthenticated(deps: AuthDeps, appKey: string, secret: string): string {
  if (deps.store.apps.get(appKey)) return `the secret does not match app ${appKey}'s masterSecret`
  if (deps.store.apps.developer(appKey))
    return `${appKey} is a devKey: an app's routes take appKey:masterSecret`
  if (!deps.config.autoProvision)
    return `no app ${appKey}, and auto-provisioning is off (AUTO_PROVISION=false)`
  if (!isWellFormedCredential(secret))
    return `no app ${appKey}; one is auto-provisioned only with a secret of 24 letters or digits`
  return `no app ${appKey}: auto-provisioning it would take an existing developer's credentials`
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

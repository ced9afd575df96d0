import type { ApiError } from '../errors.js'
import type { WindowState } from '../limits/fixed-window.js'
import type { Warning } from '../store/events/requests.js'
import type { Tenant } from '../tenancy.js'
import type { GroupLogin } from './auth/group-auth.js'

// Everything the sandbox adds to Fastify's types, in one place.

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts the close's rules now, before `close()` gets to its hooks: prepareGracefulClose calls
     * it so that an answer finishing in between already carries `Connection: close` (drain.ts).
     */
    beginDrain(): void
  }

  interface FastifyRequest {
    /** The app the request speaks for (auth.ts); set on every authenticated route. */
    tenant: Tenant
    /** The developer of a route that takes devKey:devSecret (`auth: 'dev'`). */
    devKey?: string
    /** The group and its member apps of a route that takes group credentials (`auth: 'group'`). */
    group?: GroupLogin
    /** The /v3 rate window the request counted in (push/rate-limit.ts). */
    pushRate?: WindowState
    /** What the request was answered with, when refused (error-handler.ts): the log's, the journal's. */
    refusal?: ApiError
    /** The body's text as the JSON body parser read it (body/json-body.ts), for the journal. */
    bodyText?: string
    /** A route that reads its body itself (`body: 'stream'`): the body, not yet read (json-body.ts). */
    bodyStream?: NodeJS.ReadableStream
    /** The operator's credentials act for `tenant` (X-Sandbox-App), or for no app (auth/operator.ts). */
    operator?: boolean
    /** The production advisor's warnings on this call (src/advisor/): the journal's, the header's. */
    warnings?: Warning[]
  }

  interface FastifyContextConfig {
    /**
     * Which credential pair the route takes: appKey:masterSecret (default), devKey:devSecret,
     * group-groupKey:groupMasterSecret (group push), or the operator's alone (auth/operator.ts: the
     * route acts for no app, unless X-Sandbox-App names one); `app-or-operator`: an app's for
     * itself, or the operator's with or without an app named (/_sandbox/mcp, whose calls name theirs);
     * `app-or-dev`: an app's, or a developer's devKey:devSecret, admitted by `developerAdmits`
     * (the file API, for file group push).
     */
    auth?: 'app' | 'dev' | 'group' | 'operator' | 'app-or-operator' | 'app-or-dev'
    /** On an `app-or-dev` route: throws the surface's refusal when the developer may not use it. */
    developerAdmits?: (devKey: string) => void
    /** Skip authentication (health, method-not-allowed answers). */
    public?: boolean
    /**
     * Also takes a `?token=` instead of Basic credentials (for a browser's EventSource, which
     * cannot send headers): the tenant of the token, or throws the surface's auth failure.
     */
    tokenAuth?: (token: string) => Tenant
    /**
     * How the body is read: JSON (the default), the raw bytes of a multipart form, or not at all
     * (`stream`: the handler reads `req.bodyStream` as it arrives, an app's document).
     */
    body?: 'json' | 'multipart' | 'stream'
    /**
     * Dotted paths of body fields holding ids longer than a double keeps (17-digit JPush msg_ids):
     * a bare JSON number there reaches the handler as its exact digits (json-text.ts).
     */
    exactIntegers?: readonly string[]
    /**
     * Top-level fields added to every failure of the route, wherever it was detected (auth, body
     * parsing, handler): the JSMS verify route answers `"is_valid": false` (jsms-api.md §1.5).
     */
    errorExtra?: Record<string, unknown>
    /**
     * `flat`: failures answer `{"code","message"}` at the top level, as the success does, instead of
     * the `error` envelope (the JPush push plan API: docs/jpush-wire.md "Push plans").
     */
    errorShape?: 'flat'
    /** false: the request journal does not keep this route's requests (the import replaces it). */
    journal?: false
  }
}

import { OperatorClient, SandboxClient } from '../../client/src/client.js'
import { basicAuthorization, createTransport, type Fetch, type Transport } from '../../client/src/http.js'
import { VERSION } from '../package.js'

// Who the tools act as, and how they reach the sandbox: every tool calls the control plane as
// the typed client (client/src) does, with the credentials the MCP server was given — over HTTP to
// a running sandbox (`jiguang-sandbox mcp`), or through the app's own routes (`inject`) for
// `/_sandbox/mcp` and `mcp --embedded`. So the control plane decides what each call may see: an
// app's credentials see that app only, the operator's any app a call names.

/** The credentials the tools carry. */
export type Credentials =
  | { kind: 'app'; appKey: string; masterSecret: string }
  /** `defaultApp`: the app of a call that names none (else each call must name one). */
  | { kind: 'operator'; user: string; password: string; defaultApp?: string | undefined }

export interface SessionOptions {
  /** Where the sandbox answers, as the code under test reaches it: links are made from it. */
  baseUrl: string
  credentials: Credentials
  /** How a request reaches the sandbox: the global fetch, or the app's own routes (inject-fetch.ts). */
  fetch?: Fetch | undefined
}

/** One app's control plane: the typed client, and its transport for what the client has no method for. */
export interface AppCalls {
  appKey: string
  client: SandboxClient
  http: Transport
}

/** A tool's argument that cannot work (named, with what to do): answered as the tool's error. */
export class ArgumentProblem extends Error {
  override name = 'ArgumentProblem'
}

export type Session = ReturnType<typeof createSession>

/** Names who asked in the journal's `user_agent` (GET /_sandbox/requests). */
const USER_AGENT = `jiguang-sandbox-mcp/${VERSION}`

export function createSession({ baseUrl, credentials, fetch: given }: SessionOptions) {
  const root = baseUrl.replace(/\/+$/, '')
  const fetch = withHeaders(given ?? globalThis.fetch, { 'user-agent': USER_AGENT })
  const user = credentials.kind === 'app' ? credentials.appKey : credentials.user
  const password = credentials.kind === 'app' ? credentials.masterSecret : credentials.password
  const authorization = basicAuthorization(user, password)

  return {
    baseUrl: root,
    /** True: the operator's credentials (every app, `list_apps`); false: one app's. */
    operator: credentials.kind === 'operator',
    /** The app a call that names none acts on; undefined: the operator's, without a default. */
    defaultApp: credentials.kind === 'app' ? credentials.appKey : credentials.defaultApp,

    /**
     * The control plane of `appKey`, else of the session's app. An app's credentials naming another
     * app send it as X-Sandbox-App all the same: the control plane refuses that (403 90006).
     */
    app(appKey?: string): AppCalls {
      if (credentials.kind === 'app') {
        const named = appKey !== undefined && appKey !== credentials.appKey
        const extra: Record<string, string> = named ? { 'x-sandbox-app': appKey } : {}
        const client = new SandboxClient({
          baseUrl: root,
          appKey: credentials.appKey,
          masterSecret: credentials.masterSecret,
          fetch: withHeaders(fetch, extra),
        })
        return {
          appKey: appKey ?? credentials.appKey,
          client,
          http: createTransport(root, authorization, fetch, extra),
        }
      }
      const key = appKey ?? credentials.defaultApp
      if (key === undefined)
        throw new ArgumentProblem(
          "app_key: required with the operator's credentials, which act on one app at a time (list_apps shows them)",
        )
      const operator = new OperatorClient({ baseUrl: root, user, password, fetch })
      return {
        appKey: key,
        client: operator.app(key),
        http: createTransport(root, authorization, fetch, { 'x-sandbox-app': key }),
      }
    },

    /** The operator's own calls (the list of apps); with an app's credentials the control plane refuses them. */
    apps(): OperatorClient {
      return new OperatorClient({ baseUrl: root, user, password, fetch })
    },

    /** Calls for no app: the public routes (the OpenAPI document). */
    http: createTransport(root, authorization, fetch),
  }
}

/** `fetch` with these headers added to every request. */
function withHeaders(fetch: Fetch, extra: Record<string, string>): Fetch {
  if (Object.keys(extra).length === 0) return fetch
  return (input, init) => {
    const headers = new Headers(init?.headers)
    for (const [name, value] of Object.entries(extra)) headers.set(name, value)
    return fetch(input, { ...init, headers })
  }
}

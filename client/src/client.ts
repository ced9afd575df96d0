import type {
  App,
  AppDocument,
  AppPatch,
  AppsFilter,
  AppsPage,
  Clock,
  Imported,
  Removed,
  Storage,
} from './app-types.js'
import { type EventOptions, type EventStream, openEvents } from './events.js'
import { basicAuthorization, createTransport, type Fetch, type Transport } from './http.js'
import type * as L from './list-types.js'
import { createCursors, LISTS, type NextOptions, readList } from './lists.js'
import { devicesOf, faultsOf, imagesOf, pushTemplatesOf, smsOf, testDevicesOf } from './steering.js'

/** The default app of every sandbox (README "Credentials and fixtures"). */
export const DEFAULT_APP = { appKey: '7d431e42dfa6a6d693ac2d04', masterSecret: '5e987ac6d2e04d95a9d8f0d1' }

export interface ClientOptions {
  /** Where the sandbox answers; http://127.0.0.1:8080 by default. */
  baseUrl?: string
  /** The app's credentials; the default app's when left out. */
  appKey?: string
  masterSecret?: string
  /** Another fetch (a proxy's, a test double); the global one of Node 20+ by default. */
  fetch?: Fetch
  /**
   * Act for `appKey` with the operator's credentials (SANDBOX_OPERATOR) instead of its
   * masterSecret: every call then names the app with `X-Sandbox-App`. The control plane only:
   * the operator's credentials never open /v1 or /v3. `OperatorClient.app(appKey)` makes one.
   */
  operator?: { user: string; password: string }
}

/** A list's own filters: what `next…()` takes (the window is its own). */
type Only<F> = Omit<F, keyof L.Window>

/**
 * The control plane (`/_sandbox`) of one app, typed. Every call only sees and changes that app.
 * Refusals are thrown as SandboxError (`status`, `code`); a `next…()` that sees nothing arrive in
 * time throws NothingArrived.
 */
export class SandboxClient {
  readonly appKey: string
  readonly masterSecret: string
  readonly baseUrl: string
  /** `Basic …` of appKey:masterSecret: the same credentials for /v1 and /v3. */
  readonly authorization: string
  readonly #http: Transport
  readonly #cursors = createCursors()
  /** Arms, lists and disarms the app's faults on /v1 and /v3. */
  readonly faults: ReturnType<typeof faultsOf>
  /** Push devices the test plays: register, bring online or offline, open a push. */
  readonly devices: ReturnType<typeof devicesOf>
  /** The carrier's reports, the handsets' replies, the reviewer's decisions. */
  readonly sms: ReturnType<typeof smsOf>
  /** The images of the image API (POST /v3/images/…): what each channel adopted, the files. */
  readonly images: ReturnType<typeof imagesOf>
  /** The app's test devices, which a push with options.test_model reaches alone. */
  readonly testDevices: ReturnType<typeof testDevicesOf>
  /** Push templates, as the vendor's console makes them, for POST /v3/push/template. */
  readonly pushTemplates: ReturnType<typeof pushTemplatesOf>

  constructor(options: ClientOptions = {}) {
    const { operator } = options
    this.appKey = options.appKey ?? DEFAULT_APP.appKey
    this.masterSecret = operator ? '' : (options.masterSecret ?? DEFAULT_APP.masterSecret)
    this.authorization = operator
      ? basicAuthorization(operator.user, operator.password)
      : basicAuthorization(this.appKey, this.masterSecret)
    this.#http = createTransport(
      options.baseUrl ?? 'http://127.0.0.1:8080',
      this.authorization,
      options.fetch,
      operator ? { 'x-sandbox-app': this.appKey } : {},
    )
    this.baseUrl = this.#http.baseUrl
    this.faults = faultsOf(this.#http)
    this.devices = devicesOf(this.#http)
    this.sms = smsOf(this.#http)
    this.images = imagesOf(this.#http)
    this.testDevices = testDevicesOf(this.#http)
    this.pushTemplates = pushTemplatesOf(this.#http)
  }

  /** The app's settings, balances, developer and clock. */
  app(): Promise<App> {
    return this.#http.json('GET', '/_sandbox/app')
  }

  /** The app's share of the disk: its rows per table, their estimated bytes, the caps on what grows. */
  storage(): Promise<Storage> {
    return this.#http.json('GET', '/_sandbox/app/storage')
  }

  /** Changes any of the app's settings at once; answers the new state. */
  patchApp(patch: AppPatch): Promise<App> {
    return this.#http.json('PATCH', '/_sandbox/app', { body: patch })
  }

  /** Back to its first use: all it did is gone, its fixtures and settings back, its clock real. */
  reset(): Promise<App> {
    return this.#http.json('POST', '/_sandbox/reset')
  }

  /** Removes the app; the next request with these credentials provisions it afresh. */
  deleteApp(): Promise<Removed> {
    return this.#http.json('DELETE', '/_sandbox/app')
  }

  clock(): Promise<Clock> {
    return this.#http.json('GET', '/_sandbox/clock')
  }

  /** Moves the app's clock forward; answers once all that fell due on the way has run. */
  advanceClock(ms: number): Promise<Clock> {
    return this.#http.json('POST', '/_sandbox/clock', { body: { advance_ms: ms } })
  }

  /** Moves the app's clock forward to `time` (never back: 409 90053). */
  setClock(time: L.Time): Promise<Clock> {
    return this.#http.json('POST', '/_sandbox/clock', { body: { set: new Date(time).toISOString() } })
  }

  /** The SMS that went out, newest first. */
  messages(filter: L.MessageFilter = {}): Promise<L.Page<'messages', L.Message>> {
    return readList(this.#http, LISTS.messages.path, filter)
  }

  /** The latest code texted to `mobile`: 404 90044 when none (with `wait`, once there is one). */
  latestCode(mobile: string, filter: L.CodeFilter = {}): Promise<L.Code> {
    return this.#http.json('GET', '/_sandbox/sms/codes/latest', { query: { ...filter, mobile } })
  }

  /** The next SMS matching `filter`, waiting for it (`options` says after what, how long). */
  nextMessage(filter: Only<L.MessageFilter> = {}, options: NextOptions = {}): Promise<L.Message> {
    return this.#cursors.next(this.#http, LISTS.messages, filter, options)
  }

  /** The pushes devices received, newest first. */
  pushes(filter: L.PushFilter = {}): Promise<L.Page<'messages', L.Push>> {
    return readList(this.#http, LISTS.pushes.path, filter)
  }

  /** The next push a device received matching `filter`, waiting for it. */
  nextPush(filter: Only<L.PushFilter> = {}, options: NextOptions = {}): Promise<L.Push> {
    return this.#cursors.next(this.#http, LISTS.pushes, filter, options)
  }

  /** The callbacks to the app's URL with their attempts, latest change first. */
  callbacks(filter: L.CallbackFilter = {}): Promise<L.CallbackPage> {
    return readList(this.#http, LISTS.callbacks.path, filter)
  }

  /** The next callback matching `filter` to change (queued, or tried again), waiting for it. */
  nextCallback(filter: Only<L.CallbackFilter> = {}, options: NextOptions = {}): Promise<L.Callback> {
    return this.#cursors.next(this.#http, LISTS.callbacks, filter, options)
  }

  /** The delivery reports that arrived, newest first. */
  reports(filter: L.ReportFilter = {}): Promise<L.Page<'reports', L.Report>> {
    return readList(this.#http, LISTS.reports.path, filter)
  }

  /** The uplink replies the app got, newest first. */
  replies(filter: L.ReplyFilter = {}): Promise<L.Page<'replies', L.Reply>> {
    return readList(this.#http, LISTS.replies.path, filter)
  }

  /**
   * The app's request journal, newest first: each /v1 and /v3 call and each /_sandbox write, what
   * it was answered and, when refused, why (`reason`).
   */
  requests(filter: L.RequestFilter = {}): Promise<L.Page<'requests', L.RequestEntry>> {
    return readList(this.#http, LISTS.requests.path, filter)
  }

  /** The next request of the journal matching `filter` (a refusal: `{ status: 403 }`), waiting for it. */
  nextRequest(filter: Only<L.RequestFilter> = {}, options: NextOptions = {}): Promise<L.RequestEntry> {
    return this.#cursors.next(this.#http, LISTS.requests, filter, options)
  }

  /** Everything the app holds, as one document: keep it (a CI artifact), import it elsewhere. */
  exportApp(): Promise<AppDocument> {
    return this.#http.json('GET', '/_sandbox/app/export')
  }

  /** Makes the app hold exactly what `doc` says (its own credentials kept). */
  importApp(doc: AppDocument): Promise<Imported> {
    return this.#http.json('POST', '/_sandbox/app/import', { body: doc })
  }

  /** The app's events as they happen (Server-Sent Events); `close()` the stream when done. */
  events(options: EventOptions = {}): Promise<EventStream> {
    return openEvents(this.#http, options)
  }

  /**
   * The app's latest seq, which it returns; from then on, `next…()` calls without `after` return
   * only what comes after it. (Until the first mark, they start from the app's first item.)
   */
  async mark(): Promise<number> {
    // A list's answer with no item says the app's latest seq: nothing is older than epoch 0.
    const { next_after: seq } = await this.replies({ until: 0, limit: 1 })
    this.#cursors.mark(seq)
    return seq
  }
}

export interface OperatorOptions {
  /** Where the sandbox answers; http://127.0.0.1:8080 by default. */
  baseUrl?: string
  /**
   * SANDBOX_OPERATOR's user and password: operator:operator by default, as a sandbox's that listens
   * on loopback (beyond it, the sandbox generates one: docs/configuration.md).
   */
  user?: string
  password?: string
  fetch?: Fetch
}

/**
 * The operator of a sandbox (SANDBOX_OPERATOR): every app it holds, and any one of them opened
 * without its secret. Refusals are thrown as SandboxError.
 */
export class OperatorClient {
  readonly baseUrl: string
  readonly #options: OperatorOptions
  readonly #operator: { user: string; password: string }
  readonly #http: Transport

  constructor(options: OperatorOptions = {}) {
    this.#options = options
    this.#operator = { user: options.user ?? 'operator', password: options.password ?? 'operator' }
    this.#http = createTransport(
      options.baseUrl ?? 'http://127.0.0.1:8080',
      basicAuthorization(this.#operator.user, this.#operator.password),
      options.fetch,
    )
    this.baseUrl = this.#http.baseUrl
  }

  /** The apps, the most recently active first; `wait` with `after` holds until one is active. */
  apps(filter: AppsFilter = {}): Promise<AppsPage> {
    return this.#http.json('GET', '/_sandbox/apps', { query: filter })
  }

  /** The control plane of one app, as its own client would see it (X-Sandbox-App). */
  app(appKey: string): SandboxClient {
    const { fetch } = this.#options
    return new SandboxClient({
      baseUrl: this.baseUrl,
      appKey,
      operator: this.#operator,
      ...(fetch ? { fetch } : {}),
    })
  }
}

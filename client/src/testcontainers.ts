// jiguang-sandbox-client/testcontainers: the sandbox's image started by Testcontainers for Node, as
// its modules for other services do (`new PostgreSqlContainer().start()`). One call starts the
// container, waits until GET /_sandbox/ready answers 200 and hands back where it answers: the
// sandbox's URL, the base URLs to give the vendors' clients, and a client of the control plane.
// `testcontainers` is an optional peer dependency: only this entry point needs it.
import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait } from 'testcontainers'
import { type ClientOptions, OperatorClient, SandboxClient } from './client.js'
import { createApp, type NewAppOptions, randomKey } from './create-app.js'

/** The image `docker build -t jiguang-sandbox .` makes from a clone of the repository. */
export const DEFAULT_IMAGE = 'jiguang-sandbox'
/** The plain HTTP port inside the container (the image sets PORT). */
export const HTTP_PORT = 8080
/** The TLS port inside the container, answering as the vendors' hostnames (withTls()). */
export const TLS_PORT = 443

/** What each vendor client takes as its base URL: all of them are the one sandbox. */
export interface VendorBaseUrls {
  /** JSMS (`https://api.sms.jpush.cn` in production): append `/v1/…`. */
  sms: string
  /** JPush push API (`https://api.jpush.cn`): append `/v3/…`. */
  push: string
  /** JPush device API (`https://device.jpush.cn`). */
  device: string
  /** JPush report API (`https://report.jpush.cn`). */
  report: string
}

/** The operator's user and password (SANDBOX_OPERATOR). */
interface Operator {
  user: string
  password: string
}

export class JiguangSandboxContainer extends GenericContainer {
  #tls = false
  // The image listens beyond loopback, where the sandbox has no well-known operator password:
  // the container is given one, which `operator` of the started container uses.
  #operator: Operator = { user: 'operator', password: randomKey() }

  constructor(image = DEFAULT_IMAGE) {
    super(image)
    this.withExposedPorts(HTTP_PORT)
      // Plain HTTP only unless asked: the image's TLS listener needs port 443 free in the container.
      .withEnvironment({
        TLS_PORT: '',
        LOG_LEVEL: 'warn',
        SANDBOX_OPERATOR: `${this.#operator.user}:${this.#operator.password}`,
      })
      .withWaitStrategy(Wait.forHttp('/_sandbox/ready', HTTP_PORT).forStatusCode(200))
      .withStartupTimeout(60_000)
  }

  /** Also answers HTTPS as the vendors' hostnames (docs/docker-and-tls.md), on TLS_PORT. */
  withTls(): this {
    this.#tls = true
    this.withExposedPorts(HTTP_PORT, TLS_PORT).withEnvironment({ TLS_PORT: String(TLS_PORT) })
    return this
  }

  /** The operator's credentials (SANDBOX_OPERATOR); by default a random password. */
  withOperator(user: string, password: string): this {
    this.#operator = { user, password }
    this.withEnvironment({ SANDBOX_OPERATOR: `${user}:${password}` })
    return this
  }

  override async start(): Promise<StartedJiguangSandbox> {
    return new StartedJiguangSandbox(await super.start(), this.#tls, this.#operator)
  }
}

export class StartedJiguangSandbox extends AbstractStartedContainer {
  /** Where the sandbox answers from the host: `http://<host>:<mapped port>`. */
  readonly url: string
  /** The base URL for each vendor client. */
  readonly baseUrls: VendorBaseUrls
  /** The control plane of the default app (README "Credentials and fixtures"). */
  readonly client: SandboxClient
  /** The operator of the container: every app it holds, any one opened without its secret. */
  readonly operator: OperatorClient

  constructor(
    started: StartedTestContainer,
    private readonly tls: boolean,
    operator: Operator,
  ) {
    super(started)
    this.url = `http://${started.getHost()}:${started.getMappedPort(HTTP_PORT)}`
    this.baseUrls = { sms: this.url, push: this.url, device: this.url, report: this.url }
    this.client = new SandboxClient({ baseUrl: this.url })
    this.operator = new OperatorClient({ baseUrl: this.url, ...operator })
  }

  /** A client of another app (the default one's unless given): `{ appKey, masterSecret }`. */
  clientFor(options: Omit<ClientOptions, 'baseUrl'> = {}): SandboxClient {
    return new SandboxClient({ ...options, baseUrl: this.url })
  }

  /** A fresh app of its own for one test: a new random appKey, provisioned by its first call. */
  createApp(options: Omit<NewAppOptions, 'baseUrl'> = {}): Promise<SandboxClient> {
    return createApp({ ...options, baseUrl: this.url })
  }

  /** The host port that reaches the container's TLS listener (withTls() only). */
  getTlsPort(): number {
    if (!this.tls) throw new Error('started without withTls(): no TLS listener')
    return this.getMappedPort(TLS_PORT)
  }

  /** The local CA's certificate (PEM), for clients of the TLS listener to trust. */
  async caCertificate(): Promise<string> {
    const res = await fetch(`${this.url}/_sandbox/ca.pem`)
    if (!res.ok) throw new Error(`GET /_sandbox/ca.pem: HTTP ${res.status}`)
    return res.text()
  }
}

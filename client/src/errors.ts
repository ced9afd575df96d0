/**
 * A refusal of the sandbox: its HTTP status and the `code` of its `{"error":{"code","message"}}`
 * envelope (the control plane's codes are 90001–90099, README "Errors of the control plane"; the
 * vendors' own, 5xxxx and 1xxx–8xxx, come from /v1 and /v3). `code` is null when the answer was
 * not that envelope (a proxy's page, a cut connection), and `body` holds what came.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message)
    this.name = 'SandboxError'
  }

  /** The error an answer carries (`text` is its body as received). */
  static fromAnswer(method: string, path: string, status: number, text: string): SandboxError {
    const body = parseOrText(text)
    const error = isObject(body) && isObject(body.error) ? body.error : undefined
    if (error && typeof error.code === 'number' && typeof error.message === 'string')
      return new SandboxError(status, error.code, `${method} ${path}: ${error.code} ${error.message}`, body)
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text
    return new SandboxError(status, null, `${method} ${path}: HTTP ${status} ${shown}`.trim(), body)
  }
}

/**
 * Nothing matching arrived within the wait of a `next…()` call (the sandbox answered, but had
 * nothing newer than `after` for the filter).
 */
export class NothingArrived extends Error {
  constructor(
    readonly list: string,
    readonly filter: Readonly<Record<string, unknown>>,
    readonly after: number,
    readonly waitedMs: number,
  ) {
    super(`nothing in ${list} matching ${JSON.stringify(filter)} after seq ${after} within ${waitedMs} ms`)
    this.name = 'NothingArrived'
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * A failure the vendor documents: thrown anywhere, rendered once by the error handler of the API
 * surface it belongs to as `{"error":{"code":…,"message":…}}` plus any `extra` top-level fields
 * (the JSMS verify endpoint adds `"is_valid": false`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }

  withExtra(extra: Record<string, unknown>): ApiError {
    return new ApiError(this.status, this.code, this.message, { ...this.extra, ...extra })
  }

  withStatus(status: number): ApiError {
    return new ApiError(status, this.code, this.message, this.extra)
  }

  toBody(): Record<string, unknown> {
    return { ...this.extra, error: { code: this.code, message: this.message } }
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError
}

/**
 * A start the operator can fix (a file that cannot be used, a port taken, a seed file that does not
 * parse): the process prints `jiguang-sandbox cannot start: <message>` and exits 1, without a
 * stack (server.ts). The message names what is wrong and says what to do.
 */
export class StartRefusal extends Error {
  override name = 'StartRefusal'
}

/**
 * A failure the vendor documents: thrown anywhere, rendered once by the error handler of the API
 * surface it belongs to as `{"error":{"code":…,"message":…}}` plus any `extra` top-level fields
 * (the JSMS verify endpoint adds `"is_valid": false`).
 *
 * `reason` is why the sandbox refused, in words, where it decided: the template and its review,
 * the limit and its count, the setting, the armed fault (`smsErrors.templateNotPass().because(…)`).
 * It goes to the request journal and the log line, never into the vendor's body: the answer stays
 * byte for byte the vendor's. Without one, the journal says what the code means.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly reason?: string,
    /** Fields inside `error` beside code and message: 7013's and 1003's `illegal_rids`. */
    readonly inError: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The same refusal, saying why (the journal's and the log's, never the answer's). */
  because(reason: string): ApiError {
    return new ApiError(this.status, this.code, this.message, this.extra, reason, this.inError)
  }

  withExtra(extra: Record<string, unknown>): ApiError {
    return new ApiError(
      this.status,
      this.code,
      this.message,
      { ...this.extra, ...extra },
      this.reason,
      this.inError,
    )
  }

  withStatus(status: number): ApiError {
    return new ApiError(status, this.code, this.message, this.extra, this.reason, this.inError)
  }

  /**
   * The same refusal naming the registration_ids at fault inside `error`, where cav's decoders
   * read them (device/v3_set_tag.go:97, v3_delete_aliases.go:94, push/v3_batch_send.go:188,
   * gpush/v3_send.go:171: `IllegalRIDs []string \`json:"illegal_rids"\``; jpush-api.md §4).
   */
  withIllegalRids(rids: readonly string[]): ApiError {
    return new ApiError(this.status, this.code, this.message, this.extra, this.reason, {
      ...this.inError,
      illegal_rids: [...rids],
    })
  }

  toBody(): Record<string, unknown> {
    return { ...this.extra, error: { code: this.code, message: this.message, ...this.inError } }
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

import { ApiError } from '../errors.js'
import type { Dialect } from '../http/dialect.js'
import { smsDialect } from '../sms/dialect.js'

// The control plane answers in the JSMS envelope, and plainly: a request it cannot take is 400
// with 50007 and the reason (README: the sandbox clock, faults). The seed's 403 for 50007 is the
// vendor's status on the vendor's endpoints; only an over-size body, refused before any surface
// is chosen, keeps it here too.

export const invalidControlBody = (why: string) => new ApiError(400, 50007, `invalid body: ${why}`)

const notAnObject = () => invalidControlBody('the body must be a JSON object')

/**
 * /_sandbox's codes: JSMS's, but a body it cannot take is 400 with the reason: none is 400 50003
 * as on /v1, anything but a JSON object 400 50007 (http/schema.ts).
 */
export const sandboxDialect: Dialect = {
  ...smsDialect,
  invalidBody: reason => (reason ? invalidControlBody(reason) : notAnObject()),
}

import type { SmsDeps } from '../sms/context.js'

/**
 * What every /v3 route module receives. The same dependencies as /v1: a push's sms_message
 * falls back to a text through the SMS pipeline of the same app.
 */
export type PushDeps = SmsDeps

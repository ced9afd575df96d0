import type { PipelineDeps } from '../../deps.js'
import { isApiError } from '../../errors.js'
import type { Tenant } from '../../tenancy.js'
import { dispatchPush } from '../delivery/dispatch.js'
import { pushErrors } from '../errors.js'
import type { PushRequest } from './payload.js'

/** One entry of a batch or group answer (jpush-api.md §5.14): the push's own success or error body. */
export type PushEntry = Record<string, unknown>

/**
 * One push of a batch or a group push, in its own savepoint inside the caller's write job, so its
 * failure is only its entry: `{"error":…}` for a refusal, `{"msg_id":…,"error":…}` when nobody
 * matched (the id was allocated, as for /v3/push), `success(outcome)` otherwise.
 */
export function pushOne(
  deps: PipelineDeps,
  tenant: Tenant,
  push: PushRequest,
  success: (outcome: { msgId: string; sendno: string }) => PushEntry,
): PushEntry {
  try {
    const outcome = deps.store.transaction(() => dispatchPush(deps, tenant, push, false))
    return outcome.noTarget ? pushErrors.noTarget(outcome.msgId).toBody() : success(outcome)
  } catch (err) {
    if (isApiError(err)) return err.toBody()
    throw err
  }
}

/** An entry's push as read, or its refusal as its answer when it cannot be read. */
export function readEntry(read: () => PushRequest): { push: PushRequest } | { answer: PushEntry } {
  try {
    return { push: read() }
  } catch (err) {
    if (isApiError(err)) return { answer: err.toBody() }
    throw err
  }
}

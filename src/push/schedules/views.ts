import type { Firing, PushSchedule } from '../../store/push/schedules.js'

// How the Schedule API shows a task and its firings (jpush-api.md §8).

/** The task object of GET, the list and PUT: exactly these five keys (rb tests count them). */
export const taskView = (s: PushSchedule) => ({
  schedule_id: s.scheduleId,
  name: s.name,
  enabled: s.enabled,
  trigger: s.trigger,
  push: s.push,
})

/**
 * One entry of `msgids`: a JSON-encoded string of {msg_id, error, needRetry, ts}, the shape of
 * tasks created after 2022-03-17. msg_id is a string (17 digits do not fit a double), `ts` the
 * epoch milliseconds of the occurrence; needRetry is false, as nothing is retried.
 */
export const msgIdEntry = (f: Firing) =>
  JSON.stringify({
    msg_id: f.msgId,
    error: { code: f.errorCode, message: f.errorMessage },
    needRetry: false,
    ts: f.dueAt,
  })

import type { ServerResponse } from 'node:http'
import type { SeqTopic } from '../store/engine/item-seqs.js'

/** What a waiter waits for: new seqs of one topic, or of any (GET /_sandbox/events). */
export type WaitTopic = SeqTopic | 'any'

/** A request held by `wait=`, as the hub sees it. */
export interface Waiter {
  topic: WaitTopic
  /** A durable commit of its topic: look again. */
  wake(): void
  /** Answer now, as without waiting (a reset, the close). */
  release(): void
}

/**
 * Holds one request in `waiters` until `read` finds something when woken (resolves with it), or
 * `ms` of real time pass, the client hangs up, or it is released (resolves undefined). Whatever
 * ends it takes it out of `waiters` and calls `gone`. `made` is given the waiter as it is added.
 */
export function hold<T>(
  waiters: Set<Waiter>,
  { topic, ms, res, read }: { topic: WaitTopic; ms: number; res: ServerResponse; read: () => T | undefined },
  gone: () => void,
  made?: (waiter: Waiter) => void,
): Promise<T | undefined> {
  return new Promise(resolve => {
    let done = false
    const finish = (value: T | undefined) => {
      if (done) return
      done = true
      clearTimeout(timer)
      res.off('close', release)
      waiters.delete(waiter)
      gone()
      resolve(value)
    }
    const release = () => finish(undefined)
    const timer = setTimeout(release, ms)
    const waiter: Waiter = {
      topic,
      wake() {
        let found: T | undefined
        try {
          found = read()
        } catch {
          return release() // the handler's own read reports the failure
        }
        if (found !== undefined) finish(found)
      },
      release,
    }
    // Before its answer, a response closes only when the client hung up.
    res.once('close', release)
    waiters.add(waiter)
    made?.(waiter)
  })
}

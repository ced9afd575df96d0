/**
 * What the process keeps per app outside SQLite (armed faults, rate windows, poll limiters, the
 * provisioning guard's count…) forgets an app here when `POST /_sandbox/reset` or
 * `DELETE /_sandbox/app` runs, so the app is back to its first-use state in memory too. A module
 * holding such state subscribes once, where it creates that state:
 *
 *   deps.appResets.onAppReset(appKey => windows.forget(appKey))
 *
 * Rows in SQLite and the caches of those rows need nothing: the statements that delete them
 * forget what they cached (store/apps/app-rows.ts). Subscribers run synchronously, inside the write
 * that deletes the app's rows, and must not throw.
 */
export interface AppResets {
  onAppReset(forget: (appKey: string) => void): void
  /** Every subscriber forgets `appKey`. */
  reset(appKey: string): void
}

export function createAppResets(): AppResets {
  const subscribers: Array<(appKey: string) => void> = []
  return {
    onAppReset(forget) {
      subscribers.push(forget)
    },
    reset(appKey) {
      for (const forget of subscribers) forget(appKey)
    },
  }
}

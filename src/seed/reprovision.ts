import type { AppResets } from '../app-resets.js'
import type { App, Balances } from '../store/apps/apps.js'
import type { Store } from '../store/index.js'
import {
  DEFAULT_APP_KEY,
  DEFAULT_DEV_BALANCES,
  DEFAULT_DEV_KEY,
  DEFAULT_DEV_SECRET,
  DEFAULT_MASTER_SECRET,
} from './fixtures.js'
import {
  autoProvisionApp,
  ownDeveloperOf,
  provisionApp,
  saveSeedDeveloper,
  seedDeveloperOf,
} from './provision.js'
import type { SeedFile } from './seed-file.js'

// POST /_sandbox/reset and DELETE /_sandbox/app: an app's rows go, in every table (store/apps/app-rows.ts),
// so does what the process holds of it in memory (app-resets.ts), and the app is made again by
// the code that made it first (provision.ts): from the seed file, as the default app, or as an
// auto-provisioned one with a developer of its own.

export interface ReprovisionDeps {
  store: Store
  seed: SeedFile
  appResets: AppResets
}

type Origin = 'seed' | 'default' | 'auto' | 'legacy'

/**
 * How the app came to be: the seed file's, the default app, auto-provisioned by its first request
 * (its own developer), or made otherwise (the Admin API, or provisioned before each app got its
 * own developer). Only an auto-provisioned app expires when idle (app-expiry.ts).
 */
export function originOf(seed: SeedFile, app: App): Origin {
  if (seed.apps.some(a => a.app_key === app.appKey)) return 'seed'
  if (app.appKey === DEFAULT_APP_KEY) return 'default'
  // Apps provisioned before each got a developer of its own keep the default one (README).
  return app.devKey === ownDeveloperOf(app.appKey, app.masterSecret).devKey ? 'auto' : 'legacy'
}

/** The developer as the seed file or the defaults define it; undefined for one they do not. */
function developerDefinition(
  seed: SeedFile,
  devKey: string,
): { devSecret: string; frozen: boolean; balances: Balances } | undefined {
  const d = seed.developers.find(x => x.dev_key === devKey)
  if (d)
    return { devSecret: d.dev_secret, frozen: d.frozen, balances: { ...DEFAULT_DEV_BALANCES, ...d.balances } }
  // A seed app's developer of its own (no `dev_key`).
  for (const a of seed.apps) {
    const own = seedDeveloperOf(a)
    if (own.devKey === devKey && own.ownSecret !== undefined)
      return { devSecret: own.ownSecret, frozen: false, balances: DEFAULT_DEV_BALANCES }
  }
  if (devKey === DEFAULT_DEV_KEY)
    return { devSecret: DEFAULT_DEV_SECRET, frozen: false, balances: DEFAULT_DEV_BALANCES }
  return undefined
}

/**
 * Inside a write job: every row of the app removed, its in-memory state forgotten, then (unless
 * `remove` and the app has no definition to come back from) the app made again as at its first
 * use, clock offset 0. Its developer account follows it when no other app shares it: an
 * auto-provisioned app's own one is removed (and made again), the default or a seed file's is
 * set back to its definition; one shared with another app is left alone, so no other app changes.
 * Returns whether the app exists again.
 */
export function reprovision(deps: ReprovisionDeps, app: App, now: number, { remove = false } = {}): boolean {
  const { store, seed } = deps
  const { appKey, devKey } = app
  const origin = originOf(seed, app)
  const alone = store.apps.otherUsersOf(devKey, appKey) === 0
  deps.appResets.reset(appKey)
  store.appRows.remove(appKey)
  if (origin === 'auto' && alone) store.apps.removeDeveloper(devKey)
  if (remove && (origin === 'auto' || origin === 'legacy')) return false
  if (origin === 'seed') {
    const a = seed.apps.find(x => x.app_key === appKey)!
    provisionApp(
      store,
      { appKey, masterSecret: a.master_secret, devKey: saveSeedDeveloper(store, a) },
      now,
      a,
    )
  } else if (origin === 'default') {
    provisionApp(store, { appKey, masterSecret: DEFAULT_MASTER_SECRET }, now)
  } else if (origin === 'auto') {
    autoProvisionApp(store, appKey, app.masterSecret, now)
  } else {
    provisionApp(store, { appKey, masterSecret: app.masterSecret, devKey }, now)
  }
  const definition = alone && origin !== 'auto' ? developerDefinition(seed, devKey) : undefined
  if (definition) {
    store.apps.saveDeveloper({ devKey, devSecret: definition.devSecret, frozen: definition.frozen })
    store.apps.setDeveloperBalances(devKey, definition.balances)
  }
  return true
}

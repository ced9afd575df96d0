import type { Engine } from '../engine/index.js'
import { type Balances, NO_BALANCES, toBalances } from './balances.js'

/** Credentials and standing only: balances change with every send, so they are read apart. */
export interface Developer {
  devKey: string
  devSecret: string
  frozen: boolean
}

interface DevRow {
  dev_key: string
  dev_secret: string
  frozen: number
}

/**
 * Developer accounts (the devKey:devSecret of /v1/accounts/dev, and every app's standing): read on
 * every request, so cached like apps (engine/caches.ts); their balances are kept apart (balances.ts).
 */
export function createDeveloperStore(
  { db, caches, writes }: Engine,
  balances: { forgetDeveloper(devKey: string): void },
) {
  const developers = caches.rows<string, Developer>()
  const get = db.prepare<[string], DevRow>(
    'SELECT dev_key, dev_secret, frozen FROM developers WHERE dev_key = ?',
  )
  // A developer removed, then made again (auto-provisioning the same app) comes with new balances:
  // each statement forgets its row and its balances.
  const forgets = [developers, { forget: balances.forgetDeveloper }]
  const upsert = writes<{ devKey: string; devSecret: string; frozen: number } & Balances>(
    `INSERT INTO developers (dev_key, dev_secret, frozen, balance, voice, industry, market)
     VALUES (@devKey, @devSecret, @frozen, @balance, @voice, @industry, @market)
     ON CONFLICT (dev_key) DO UPDATE SET dev_secret = excluded.dev_secret, frozen = excluded.frozen`,
    { key: d => d.devKey, forgets },
  )
  // Only after its apps are gone (apps.dev_key references it).
  const remove = writes<[devKey: string]>('DELETE FROM developers WHERE dev_key = ?', {
    key: ([devKey]) => devKey,
    forgets,
  })

  return {
    developer(devKey: string): Developer | undefined {
      const hit = developers.get(devKey)
      if (hit) return hit
      const row = get.get(devKey)
      return (
        row &&
        developers.remember(devKey, {
          devKey: row.dev_key,
          devSecret: row.dev_secret,
          frozen: row.frozen === 1,
        })
      )
    },
    /** Creates the developer if new (with `balances`); an existing one keeps its balances. */
    saveDeveloper(d: Developer & { balances?: Balances }): void {
      upsert.run({
        devKey: d.devKey,
        devSecret: d.devSecret,
        frozen: d.frozen ? 1 : 0,
        ...toBalances(d.balances ?? NO_BALANCES),
      })
    },
    removeDeveloper(devKey: string): void {
      remove.run([devKey])
    },
  }
}

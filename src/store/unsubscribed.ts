import type { Db } from './db.js'

/** Mobiles that unsubscribed from an app's marketing messages (50024). */
export function createUnsubscribedStore(db: Db) {
  const has = db.prepare<[string, string], { n: number }>(
    'SELECT 1 AS n FROM unsubscribed WHERE app_key = ? AND mobile = ?',
  )
  const add = db.prepare(
    'INSERT INTO unsubscribed (app_key, mobile, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  )
  return {
    has(appKey: string, mobile: string): boolean {
      return has.get(appKey, mobile) !== undefined
    },
    add(appKey: string, mobile: string, now: number): void {
      add.run(appKey, mobile, now)
    },
  }
}

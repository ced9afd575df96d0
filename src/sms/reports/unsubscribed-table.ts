import type { Engine } from '../../store/engine/index.js'

/** Mobiles that unsubscribed from an app's marketing messages (50024). */
export function createUnsubscribedStore({ db }: Engine) {
  const has = db.prepare<[string, string], { n: number }>(
    'SELECT 1 AS n FROM unsubscribed WHERE app_key = ? AND mobile = ?',
  )
  const add = db.prepare(
    'INSERT INTO unsubscribed (app_key, mobile, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  )
  const list = db.prepare<[string], { mobile: string }>(
    'SELECT mobile FROM unsubscribed WHERE app_key = ? ORDER BY mobile',
  )
  const clear = db.prepare<[string]>('DELETE FROM unsubscribed WHERE app_key = ?')
  return {
    has(appKey: string, mobile: string): boolean {
      return has.get(appKey, mobile) !== undefined
    },
    add(appKey: string, mobile: string, now: number): void {
      add.run(appKey, mobile, now)
    },
    list(appKey: string): string[] {
      return list.all(appKey).map(r => r.mobile)
    },
    /** Replaces the app's whole list (PATCH /_sandbox/app). */
    replace(appKey: string, mobiles: readonly string[], now: number): void {
      clear.run(appKey)
      for (const mobile of mobiles) add.run(appKey, mobile, now)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The mobiles that replied TD, T or 退订, per app: no marketing texts to them (store.unsubscribed). */
    unsubscribed: ReturnType<typeof createUnsubscribedStore>
  }
}

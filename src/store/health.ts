import type { Db } from './db.js'
import { listMigrations, MIGRATIONS_DIR } from './db.js'

/**
 * Readiness of the database: open, and its schema at the newest migration shipped with this
 * build. `true`, or the reason it is not.
 */
export function databaseStatus(db: Db, dir = MIGRATIONS_DIR): () => true | string {
  const latest = listMigrations(dir).at(-1)?.version ?? 0
  return () => {
    if (!db.open) return 'database closed'
    const version = db.pragma('user_version', { simple: true }) as number
    return version >= latest ? true : `schema at migration ${version}, ${latest} expected`
  }
}

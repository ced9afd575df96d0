import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'

export type Db = Database.Database

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations')

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  // NORMAL: a COMMIT does not wait for the disk; wal-sync.ts fsyncs the WAL off the event loop
  // before any answer leaves (writer.ts), once per group of commits. As durable as FULL, but the
  // process keeps serving while the disk works.
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db, migrationsDir)
  return db
}

/** Forward-only: files `NNN_name.sql` run in order, `PRAGMA user_version` remembers the last one. */
function migrate(db: Db, dir: string): void {
  const current = db.pragma('user_version', { simple: true }) as number
  const files = readdirSync(dir)
    .filter(f => /^\d{3}_.+\.sql$/.test(f))
    .sort()
  for (const file of files) {
    const version = Number(file.slice(0, 3))
    if (version <= current) continue
    const sql = readFileSync(join(dir, file), 'utf8')
    db.transaction(() => {
      db.exec(sql)
      db.pragma(`user_version = ${version}`)
    })()
  }
}

/** The migration files `NNN_name.sql` in the order `migrate` runs them (readiness compares). */
export function listMigrations(dir: string): { file: string; version: number }[] {
  return readdirSync(dir)
    .filter(f => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map(file => ({ file, version: Number(file.slice(0, 3)) }))
}

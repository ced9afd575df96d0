import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { lockDatabase, releaseDatabase } from './lock.js'
import { DatabaseOpenError, folderFailure, openFailure } from './open-errors.js'

export type Db = Database.Database

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'migrations')

/**
 * Opens (creating if needed) the database file, takes it for this process alone (lock.ts) and
 * brings its schema up to date. What an operator can get wrong (a folder that cannot be made or
 * written, a file that is not a database, another process on it, a schema from a newer build)
 * is a DatabaseOpenError: one line saying what to do.
 */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR): Db {
  if (path === ':memory:') return configure(new Database(path), path, migrationsDir)
  const folder = dirname(path)
  try {
    mkdirSync(folder, { recursive: true })
  } catch (err) {
    throw folderFailure(err, folder, path)
  }
  let db: Db | undefined
  try {
    // How long to wait for the lock: only a process starting at the same moment lets go of it.
    db = new Database(path, { timeout: 1_000 })
    lockDatabase(db, path)
    return configure(db, path, migrationsDir)
  } catch (err) {
    db?.close()
    throw openFailure(err, path)
  }
}

/** Closes the connection, which lets go of the file (lock.ts). */
export function closeDatabase(db: Db): void {
  db.close()
  if (!db.memory) releaseDatabase(db.name)
}

function configure(db: Db, path: string, migrationsDir: string): Db {
  db.pragma('journal_mode = WAL')
  // NORMAL: a COMMIT does not wait for the disk; wal-sync.ts fsyncs the WAL off the event loop
  // before any answer leaves (writer.ts), once per group of commits. As durable as FULL, but the
  // process keeps serving while the disk works.
  db.pragma('synchronous = NORMAL')
  // A write job runs in a savepoint, and its statements in statement journals: SQLite copies each
  // page they change first into a sub-journal, spilled to a temporary FILE past 64 KiB by default,
  // so a batch of jobs paid a write(2) per page touched (13–18 % of a send's CPU:
  // docs/performance.md). In memory it is a copy; it is emptied as each job's savepoint ends.
  db.pragma('temp_store = MEMORY')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  refuseNewerSchema(db, path, migrationsDir)
  migrate(db, migrationsDir)
  return db
}

/** A file written by a newer build: migrating forward-only cannot help, and this build would misread it. */
function refuseNewerSchema(db: Db, path: string, dir: string): void {
  const version = db.pragma('user_version', { simple: true }) as number
  const latest = listMigrations(dir).at(-1)?.version ?? 0
  if (version > latest)
    throw new DatabaseOpenError(
      `DB_PATH ${path} has schema version ${version}, newer than this build knows (${latest}): run the jiguang-sandbox version that wrote it or a newer one, or choose another DB_PATH`,
    )
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
  // Migrations that rebuild tables (012) leave the old pages free; a new database (the common start:
  // `docker run`) starts without them, as if it had been made at the last migration (≈ 2 ms).
  if (current === 0 && (db.pragma('freelist_count', { simple: true }) as number) > 0) db.exec('VACUUM')
}

/** The migration files `NNN_name.sql` in the order `migrate` runs them (readiness compares). */
export function listMigrations(dir: string): { file: string; version: number }[] {
  return readdirSync(dir)
    .filter(f => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map(file => ({ file, version: Number(file.slice(0, 3)) }))
}

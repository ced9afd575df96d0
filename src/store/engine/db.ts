import { createHash } from 'node:crypto'
import {
  accessSync,
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { StartRefusal } from '../../errors.js'
import { PACKAGE_DIR } from '../../package.js'

export type Db = Database.Database

export const MIGRATIONS_DIR = join(PACKAGE_DIR, 'migrations')

/** Where the build leaves a new database already migrated (`freshDatabaseFile`, scripts/build.ts). */
export const FRESH_DIR = join(PACKAGE_DIR, 'dist')

// Opening the database file: the folder, the lock that keeps it to one process, the pragmas, the
// migrations, and what the operator can get wrong on the way, each said in one line.

/**
 * Opens (creating if needed) the database file, takes it for this process alone (below) and
 * brings its schema up to date. What an operator can get wrong (a folder that cannot be made or
 * written, a file that is not a database, another process on it, a schema from a newer build)
 * is a DatabaseOpenError: one line saying what to do.
 */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR, freshDir = FRESH_DIR): Db {
  if (path === ':memory:') return configure(new Database(path), path, migrationsDir)
  const folder = dirname(path)
  try {
    mkdirSync(folder, { recursive: true })
  } catch (err) {
    throw folderFailure(err, folder, path)
  }
  refuseEmptyFile(path)
  copyFreshDatabase(path, migrationsDir, freshDir)
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

/**
 * SQLite takes a file of 0 bytes for a new database and would start an empty sandbox on it, as if
 * nothing had been lost. A sandbox's own file is never empty once it has started (its first
 * statements write the header), so such a file was truncated, or made by something else (a
 * `touch` before a bind mount): refused, naming it. A file of other bytes that are not SQLite's
 * is refused by SQLite itself (SQLITE_NOTADB, openFailure).
 */
function refuseEmptyFile(path: string): void {
  const found = statOrUndefined(path)
  if (found?.isFile() && found.size === 0)
    throw new DatabaseOpenError(
      `DB_PATH ${path} is an empty file (0 bytes), not a SQLite database: restore it from a backup, or remove it to start with an empty one`,
    )
}

/**
 * A new database starts as a copy of the one the build migrated (`writeFreshDatabase`): running
 * the migrations and the VACUUM after them was ≈ 35–45 ms of CPU at every start on a new file
 * (`docker run`), a copy is a read and a write (docs/performance.md, "The start and idle memory").
 * The build's file is named after a digest of the migrations it ran (their names and contents), so
 * a copy is made only for the migrations this process ships; otherwise, or if the copy cannot be
 * made (a folder that cannot be written, a file system without hard links), nothing is copied and
 * SQLite makes the file and `migrate` runs as before, failing, if it does, with the same messages.
 * The copy is written beside the path, flushed to the disk, then linked to the path, which fails
 * if a file is there: a process starting at the same moment on the same path finds either no file
 * or a whole one, and the lock (`lockDatabase`) still decides which of them runs. Either way
 * `configure` then sets the pragmas and migrates whatever the copy lacks (nothing).
 */
function copyFreshDatabase(path: string, migrationsDir: string, freshDir: string): void {
  if (statOrUndefined(path) !== undefined) return
  let fresh: Buffer
  try {
    fresh = readFileSync(freshDatabaseFile(freshDir, migrationsDir))
  } catch {
    return
  }
  const temporary = `${path}-fresh-${process.pid}`
  try {
    // SQLite makes its files readable by all and writable by their owner (less the umask).
    const fd = openSync(temporary, 'wx', 0o644)
    try {
      writeSync(fd, fresh)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    linkSync(temporary, path)
  } catch {
    // No copy: SQLite makes the file (or says why it cannot), and the migrations run.
  } finally {
    removeIfThere(temporary)
  }
}

/** `unlinkSync`, a missing file taken as removed (rmSync loads node's rimraf, at start: ≈ 1 ms). */
function removeIfThere(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Not there (it was never made), or the folder cannot be written: nothing was left in it.
  }
}

/** The file, in `freshDir`, of a new database migrated by the migrations in `migrationsDir`. */
export function freshDatabaseFile(freshDir: string, migrationsDir: string): string {
  const digest = createHash('sha256')
  for (const { file } of listMigrations(migrationsDir))
    digest
      .update(file)
      .update('\0')
      .update(readFileSync(join(migrationsDir, file)))
      .update('\0')
  return join(freshDir, `fresh-${digest.digest('hex').slice(0, 16)}.db`)
}

/**
 * The build's new database (scripts/build.ts): every migration run on an empty file, then
 * VACUUMed, as `migrate` leaves a new database; in SQLite's default journal mode, one file that
 * `copyFreshDatabase` copies (`configure` sets WAL on the copy). Returns its path.
 */
export function writeFreshDatabase(freshDir: string, migrationsDir = MIGRATIONS_DIR): string {
  const file = freshDatabaseFile(freshDir, migrationsDir)
  rmSync(file, { force: true })
  mkdirSync(freshDir, { recursive: true })
  const db = new Database(file)
  try {
    db.pragma('foreign_keys = ON')
    migrate(db, migrationsDir)
  } finally {
    db.close()
  }
  return file
}

/** Closes the connection, which lets go of the file (`lockDatabase`). */
export function closeDatabase(db: Db): void {
  db.close()
  if (!db.memory) releaseDatabase(db.name)
}

function configure(db: Db, path: string, migrationsDir: string): Db {
  db.pragma('journal_mode = WAL')
  // NORMAL: a COMMIT does not wait for the disk; writer.ts fsyncs the WAL off the event loop
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

/**
 * One process per database file. Two would each trust their own caches (a template deleted
 * through one still sends through the other, a clock move is invisible to the other) and
 * fight over SQLite's write lock ("database is locked").
 *
 * The lock is SQLite's own: in `locking_mode = EXCLUSIVE` the connection takes an exclusive
 * (fcntl) lock on the file at its first transaction and keeps it until it closes. The kernel
 * drops it with the process, even after SIGKILL: no stale lock, and no pid to compare (in a
 * container every process is pid 1). In this mode SQLite keeps the WAL index in the process's
 * heap, not in a `-shm` file. Who holds the lock is not part of it: the holder writes its pid,
 * host and start time beside the file (`<DB_PATH>-holder`), for the refused process to show.
 */
export function lockDatabase(db: Db, path: string): void {
  db.pragma('locking_mode = EXCLUSIVE')
  try {
    db.pragma('journal_mode = WAL')
    db.exec('BEGIN EXCLUSIVE; COMMIT')
  } catch (err) {
    if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err
    throw new DatabaseOpenError(
      `DB_PATH ${path} is in use by another jiguang-sandbox process${holder(path)}: stop that one, or give each process its own DB_PATH`,
    )
  }
  try {
    const started = new Date().toISOString()
    writeFileSync(holderFile(path), `${JSON.stringify({ pid: process.pid, host: hostname(), started })}\n`)
  } catch {
    // Only the message of a refused process needs it; a folder we cannot write fails elsewhere.
  }
}

/** After the connection closed: nobody holds the file any more. */
export function releaseDatabase(path: string): void {
  try {
    rmSync(holderFile(path), { force: true })
  } catch {
    // A folder made read-only meanwhile: the note stays, and the next holder overwrites it.
  }
}

const holderFile = (path: string) => `${path}-holder`

function holder(path: string): string {
  try {
    const h = JSON.parse(readFileSync(holderFile(path), 'utf8')) as Record<string, unknown>
    return ` (pid ${h.pid} on host ${h.host}, started ${h.started})`
  } catch {
    return ''
  }
}

/**
 * The database cannot be used, for a reason the operator can fix: one line saying what is wrong
 * and what to do. The process prints it and exits non-zero (server.ts), without a stack.
 */
export class DatabaseOpenError extends StartRefusal {
  override name = 'DatabaseOpenError'
}

// SQLite's extended codes (SQLITE_CANTOPEN_ISDIR, SQLITE_IOERR_WRITE…) start with the primary one.
const fileCodes = ['SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_READONLY', 'SQLITE_AUTH', 'SQLITE_IOERR']

/** What an error from opening `path` means to the operator; anything unexpected is kept as is. */
export function openFailure(err: unknown, path: string): unknown {
  const code = String((err as { code?: unknown }).code ?? '')
  const why = `(${code}: ${(err as Error).message})`
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
    return new DatabaseOpenError(
      `DB_PATH ${path} is not a SQLite database or is damaged ${why}: restore it from a backup, or move it away to start with an empty one`,
    )
  if (code.startsWith('SQLITE_FULL'))
    return new DatabaseOpenError(`the disk holding DB_PATH ${path} is full ${why}: free some space`)
  if (fileCodes.some(prefix => code.startsWith(prefix))) return new DatabaseOpenError(diagnose(path, why))
  return err
}

/** The folder for `path` could not be made. */
export function folderFailure(err: unknown, folder: string, path: string): DatabaseOpenError {
  return new DatabaseOpenError(
    `cannot create the folder ${folder} for DB_PATH ${path} (${(err as Error).message}): create it writable for ${user()}, or choose another DB_PATH`,
  )
}

/** Which of the usual operator mistakes made SQLite unable to open the file: what, why, what to do. */
function diagnose(path: string, why: string): string {
  const folder = dirname(path)
  const exists = statOrUndefined(path)
  if (exists?.isDirectory())
    return `DB_PATH ${path} is a folder ${why}: give the path of a file (for example ${path}/sandbox.db)`
  if (exists && !can(path, constants.R_OK | constants.W_OK))
    return `DB_PATH ${path} cannot be read and written by ${user()} ${why}: fix its owner or mode, or choose another DB_PATH`
  if (!can(folder, constants.W_OK))
    return `the folder ${folder} of DB_PATH ${path} cannot be written by ${user()} ${why}: SQLite keeps its -wal file beside the database; fix the folder's owner or mode, or choose another DB_PATH`
  return `cannot open DB_PATH ${path} ${why}: check that ${folder} is a folder on a local disk that ${user()} can write, or choose another DB_PATH`
}

function statOrUndefined(path: string) {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

function can(path: string, mode: number): boolean {
  try {
    accessSync(path, mode)
    return true
  } catch {
    return false
  }
}

const user = () => `this user (uid ${process.getuid?.() ?? '?'})`

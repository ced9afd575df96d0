import { closeSync, openSync, readSync, statSync } from 'node:fs'
import type { Db } from './db.js'
import { listMigrations, MIGRATIONS_DIR } from './db.js'

/** Where the monitor reports what it sees (the app's pino logger). */
export interface HealthLog {
  error(fields: object, msg: string): void
  info(fields: object, msg: string): void
}

/** A write refused because it could not survive; every surface answers it as its server error. */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable'
}

const MAGIC = 'SQLite format 3\0' // the first 16 bytes of every SQLite database file
const CORRUPT = /^SQLITE_(CORRUPT|NOTADB)/
const NO_SPACE = /^(SQLITE_FULL|ENOSPC|EDQUOT)/

/**
 * Whether writes can survive. The monitor is told what SQLite and the WAL's fsync throw where
 * those errors end up: the writer's and `transaction`'s catch (writer.ts), the app's onError hook
 * for a read that fails in a handler (src/app.ts), the scheduler's and the event stream's catch. It
 * watches for:
 * - the file at DB_PATH deleted, replaced (another inode) or no longer a SQLite file: SQLite keeps
 *   writing into the file it opened, which a restart would not find. Checked before every commit
 *   (a stat and a 16-byte read) and by readiness; from then on writes are refused until a restart.
 * - SQLITE_CORRUPT or SQLITE_NOTADB from a statement or a commit: refused until a restart.
 * - a full disk (SQLITE_FULL, ENOSPC on the WAL's fsync): writes are still tried (each fails on
 *   its own, 500), readiness says not ready until a write is committed and synced again.
 */
export function createHealth(db: Db, log?: HealthLog) {
  const file = db.memory ? undefined : watchFile(db.name)
  let fatal: string | undefined
  let full: string | undefined
  let fullSeen = 0

  function fail(reason: string): void {
    if (fatal) return
    fatal = reason
    log?.error({ database: db.name }, `database: ${reason}; writes are refused until a restart`)
  }

  function checkFile(): void {
    if (!file || fatal) return
    const changed = file.changed()
    if (changed) fail(changed)
  }

  return {
    /** Why writes cannot survive now, or undefined. */
    problem(): string | undefined {
      checkFile()
      return fatal ?? full
    },
    /** Before a commit: throws DatabaseUnavailable if the write could not survive. */
    assertWritable(): void {
      checkFile()
      if (fatal) throw new DatabaseUnavailable(`write refused: ${fatal}`)
    },
    /** An error from SQLite or from the WAL's fsync. */
    observe(err: unknown): void {
      const code = String((err as { code?: unknown } | null)?.code ?? '')
      if (CORRUPT.test(code)) fail(`the database file is damaged (${code}); restore it from a backup`)
      else if (NO_SPACE.test(code)) {
        fullSeen++
        if (!full) log?.error({ database: db.name, code }, 'database: disk full, writes fail')
        full = `disk full (${code}): free some space`
      }
    },
    /** A mark to pass to `wrote` once the writes started after it are durable. */
    mark: (): number => fullSeen,
    /** Writes started at `mark` are committed and synced: the disk has room again, unless one failed. */
    wrote(mark: number): void {
      if (!full || fullSeen !== mark) return
      full = undefined
      log?.info({ database: db.name }, 'database: writes succeed again')
    },
    close(): void {
      file?.close()
    },
  }
}

export type StoreHealth = ReturnType<typeof createHealth>

/** The identity of the file SQLite opened, to compare with whatever is at its path now. */
function watchFile(path: string) {
  const fd = openSync(path, 'r')
  const { dev, ino } = statSync(path)
  const head = Buffer.alloc(MAGIC.length)
  return {
    changed(): string | undefined {
      try {
        const now = statSync(path)
        if (now.dev !== dev || now.ino !== ino)
          return `the file at ${path} was replaced while the sandbox ran; restart it to use the new file`
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'ENOTDIR')
          return `the file at ${path} was deleted while the sandbox ran; restart it (a new, empty database is created)`
        return undefined // a stat that fails otherwise says nothing about the file
      }
      const n = readSync(fd, head, 0, head.length, 0)
      if (n < head.length || head.toString('latin1') !== MAGIC)
        return `the file at ${path} is no longer a SQLite database (overwritten); restore it from a backup`
      return undefined
    },
    close: () => closeSync(fd),
  }
}

/**
 * Readiness of the database: open, its schema at the newest migration shipped with this build,
 * and (with the store's monitor) able to keep what is written. `true`, or the reason it is not.
 */
export function databaseStatus(
  db: Db,
  { health, dir = MIGRATIONS_DIR }: { health?: StoreHealth; dir?: string } = {},
): () => true | string {
  const latest = listMigrations(dir).at(-1)?.version ?? 0
  return () => {
    if (!db.open) return 'database closed'
    const problem = health?.problem()
    if (problem) return problem
    const version = db.pragma('user_version', { simple: true }) as number
    return version >= latest ? true : `schema at migration ${version}, ${latest} expected`
  }
}

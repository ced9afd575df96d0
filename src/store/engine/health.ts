import { closeSync, openSync, readSync, type Stats, statSync } from 'node:fs'
import { processLimit } from '../../limits/process-limits.js'
import type { Db } from './db.js'
import { listMigrations, MIGRATIONS_DIR } from './db.js'

/** Where the monitor reports what it sees (the app's pino logger). */
export interface HealthLog {
  error(fields: object, msg: string): void
  warn(fields: object, msg: string): void
  info(fields: object, msg: string): void
}

/** A write refused because it could not survive; every surface answers it as its server error. */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable'
}

const MAGIC = 'SQLite format 3\0' // the first 16 bytes of every SQLite database file
const CORRUPT = /^SQLITE_(CORRUPT|NOTADB)/
const NO_SPACE = /^(SQLITE_FULL|ENOSPC|EDQUOT)/
// write(2) failing with EFBIG (RLIMIT_FSIZE) is reported by SQLite as an I/O error on write.
const IO_WRITE = /^(SQLITE_IOERR_WRITE|EFBIG)/

/**
 * Whether writes can survive. The monitor is told what SQLite and the WAL's fsync throw where
 * those errors end up: the writer's and `transaction`'s catch (writer.ts), the app's onError hook
 * for a read that fails in a handler (src/app.ts), the scheduler's and the event stream's catch. It
 * watches for:
 * - the file at DB_PATH deleted, replaced (another inode) or no longer a SQLite file: SQLite keeps
 *   writing into the file it opened, which a restart would not find. Checked before every commit
 *   (a stat and a 16-byte read) and by readiness; from then on writes are refused until a restart.
 * - its `-wal` deleted, replaced or made unwritable (the WAL): SQLite keeps appending commits to
 *   the file it opened, and a crash before the next checkpoint would lose every one of them,
 *   acknowledged or not (issue 19: 0 of 5 after SIGKILL). Checked with the database file. The
 *   sandbox repairs it at once: leaving WAL mode checkpoints what the old WAL holds into the
 *   database file (synced) and lets it go, and going back makes a new `-wal` at the path; the
 *   writer's fsync then follows the new file (`onWalRenewed`). If that fails (a folder no longer
 *   writable), writes are refused, readiness says why and what to do, and the repair is tried
 *   again at each check until it succeeds. `watch()` checks every second, so an idle sandbox is
 *   repaired too, not only at its next write.
 * - SQLITE_CORRUPT or SQLITE_NOTADB from a statement or a commit: refused until a restart.
 * - a full disk (SQLITE_FULL, ENOSPC on the WAL's fsync), or a file at the process's file-size
 *   limit (RLIMIT_FSIZE, `ulimit -f`: write(2) fails with EFBIG, which SQLite reports as an I/O
 *   error; Node ignores the SIGXFSZ that comes with it): writes are still tried (each fails on its
 *   own, 500), readiness says not ready, naming the cause, until a write is committed and synced
 *   again. A `-wal` at the limit is checkpointed (emptied) at once, which frees the next writes.
 */
export function createHealth(db: Db, log?: HealthLog) {
  const file = db.memory ? undefined : watchFile(db.name)
  const wal = db.memory ? undefined : watchWal(db.name)
  let fatal: string | undefined
  let full: string | undefined
  let fullSeen = 0
  /** Why the `-wal` cannot be repaired now (writes refused until it can), what was seen, and when it was last tried. */
  let walBroken: string | undefined
  let walSeen: string | undefined
  let walTried = 0
  const renewed: Array<() => void> = []
  let timer: NodeJS.Timeout | undefined

  function fail(reason: string): void {
    if (fatal) return
    fatal = reason
    log?.error({ database: db.name }, `database: ${reason}; writes are refused until a restart`)
  }

  function checkFile(): void {
    if (!file || fatal) return
    const changed = file.changed()
    if (changed) fail(changed)
    else checkWal()
  }

  /** The `-wal` as SQLite opened it, or repaired (outside any transaction: the caller's). */
  function checkWal(): void {
    if (!wal || db.inTransaction || !db.open) return
    // What was first seen stays the cause while the repair fails (the WAL SQLite then makes looks
    // like a replacement).
    const changed = walBroken ? wal.changed() && walSeen : wal.changed()
    if (!changed) {
      if (walBroken) {
        walBroken = undefined
        log?.info({ database: db.name }, 'database: the -wal file is sound again; writes succeed again')
      }
      return
    }
    // A repair that failed is tried again at most once a second.
    const now = Date.now()
    if (walBroken && now - walTried < 1_000) return
    walTried = now
    try {
      // Leaving WAL mode checkpoints every frame of the old WAL into the database file, syncs it and
      // lets the WAL go; coming back makes a new one at the path at the next write.
      db.pragma('journal_mode = DELETE')
      db.pragma('journal_mode = WAL')
      wal.renewed()
      for (const fn of renewed) fn()
      log?.warn(
        { database: db.name },
        `database: ${changed}; what it held was written into the database file and a new -wal made: nothing acknowledged was lost`,
      )
      walBroken = undefined
      walSeen = undefined
    } catch (err) {
      const code = String((err as { code?: unknown }).code ?? (err as Error).message)
      const reason =
        `${changed}, and it cannot be made again (${code}): make the folder of ${db.name} writable ` +
        'for this user (the sandbox then repairs it by itself), or stop the sandbox with SIGTERM, ' +
        'which writes what the WAL holds into the database file; a SIGKILL now would lose the writes since the last checkpoint'
      if (!walBroken) log?.error({ database: db.name }, `database: ${reason}; writes are refused meanwhile`)
      walBroken = reason
      walSeen = changed
    }
  }

  /** Whether the error says a file reached the process's file-size limit; then its description. */
  function fileSizeLimitHit(): string | undefined {
    const limit = processLimit('Max file size')
    if (limit === undefined || db.memory) return undefined
    for (const path of [db.name, `${db.name}-wal`]) {
      const size = sizeOf(path)
      // Within a few pages of the limit: the next page written would cross it.
      if (size !== undefined && size + 64 * 1024 > limit)
        return `${path} reached the file-size limit of this process (RLIMIT_FSIZE, ulimit -f: ${limit} bytes): raise it and restart, or free the app data the file holds`
    }
    return undefined
  }

  return {
    /** Why writes cannot survive now, or undefined. */
    problem(): string | undefined {
      checkFile()
      return fatal ?? walBroken ?? full
    },
    /** Before a commit: throws DatabaseUnavailable if the write could not survive. */
    assertWritable(): void {
      checkFile()
      const refused = fatal ?? walBroken
      if (refused) throw new DatabaseUnavailable(`write refused: ${refused}`)
    },
    /** An error from SQLite or from the WAL's fsync. */
    observe(err: unknown): void {
      const code = String((err as { code?: unknown } | null)?.code ?? '')
      if (CORRUPT.test(code)) fail(`the database file is damaged (${code}); restore it from a backup`)
      else if (NO_SPACE.test(code) || IO_WRITE.test(code)) {
        const limit = NO_SPACE.test(code) ? undefined : fileSizeLimitHit()
        if (!limit && !NO_SPACE.test(code)) return // an I/O error of another kind: that request's 500
        fullSeen++
        const why = limit ?? `disk full (${code}): free some space`
        if (!full) log?.error({ database: db.name, code }, `database: ${why}; writes fail`)
        full = why
        // The WAL at the limit: a checkpoint empties it (its pages go to the database file).
        if (limit?.includes('-wal') && !db.inTransaction) {
          try {
            db.pragma('wal_checkpoint(TRUNCATE)')
          } catch {
            // The database file cannot take them either: the operator's to fix, as said.
          }
        }
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
    /** The `-wal` was made anew: whoever holds its descriptor (the writer's fsync) opens the new one. */
    onWalRenewed(fn: () => void): void {
      renewed.push(fn)
    },
    /** Checks the files every second, so that an idle sandbox is repaired (or refuses) too. */
    watch(): void {
      if (!file || timer) return
      timer = setInterval(() => checkFile(), 1_000).unref()
    },
    close(): void {
      clearInterval(timer)
      timer = undefined
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
 * The `-wal` file SQLite writes its commits to, by identity: deleted, replaced (another inode) or
 * no longer writable by this user is a WAL a restart would not find, or could not use.
 */
function watchWal(dbPath: string) {
  const path = `${dbPath}-wal`
  let known: Stats | undefined = statOrUndefined(path)
  const uid = process.getuid?.()
  return {
    changed(): string | undefined {
      const now = statOrUndefined(path)
      // Not made yet (no write since the start in WAL mode): nothing to lose.
      if (!known) {
        known = now
        return undefined
      }
      if (!now) return `the -wal file ${path} was deleted while the sandbox ran`
      if (now.dev !== known.dev || now.ino !== known.ino)
        return `the -wal file ${path} was replaced while the sandbox ran`
      if (uid !== undefined && uid !== 0 && (now.uid !== uid || (now.mode & 0o200) === 0))
        return `the -wal file ${path} can no longer be written by this user (its owner or mode changed)`
      return undefined
    },
    /** SQLite made it anew (or will, at the next write): its new identity is learnt then. */
    renewed(): void {
      known = statOrUndefined(path)
    },
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

const sizeOf = (path: string): number | undefined => statOrUndefined(path)?.size

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

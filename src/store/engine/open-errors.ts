import { accessSync, constants, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { StartRefusal } from '../../process/start-refusal.js'

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

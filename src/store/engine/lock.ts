import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type Database from 'better-sqlite3'
import { DatabaseOpenError } from './open-errors.js'

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
export function lockDatabase(db: Database.Database, path: string): void {
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

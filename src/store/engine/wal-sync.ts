import { closeSync, fsync, fsyncSync, openSync } from 'node:fs'
import type { Db } from './db.js'

/**
 * Makes committed transactions durable. The database runs with `synchronous = NORMAL` (db.ts): a
 * COMMIT writes its pages to the WAL file without waiting for the disk, and this module then
 * fsyncs that file. `sync(done)` does it on libuv's thread pool, so the event loop keeps parsing
 * and running the next group of requests while the disk works, and one fsync covers every commit
 * made before it started (group commit across batches). `syncNow()` is the blocking form for
 * rare writes outside the request path. Either way nobody hears "done" before the fsync returned:
 * the same guarantee as `synchronous = FULL`, without stalling the process for each fsync.
 */
export interface WalSync {
  sync(done: (err: Error | null) => void): void
  syncNow(): void
  close(): void
}

export function createWalSync(db: Db): WalSync {
  // Nothing to make durable in memory.
  if (db.memory) return { sync: done => queueMicrotask(() => done(null)), syncNow() {}, close() {} }
  const walPath = `${db.name}-wal`
  let fd: number | undefined
  // The WAL file exists once the connection has written in WAL mode; SQLite only deletes it when
  // the last connection closes, so the descriptor stays valid for the life of the store.
  const descriptor = () => {
    fd ??= openSync(walPath, 'r+')
    return fd
  }

  let inFlight = false
  let closing = false
  let waiting: Array<(err: Error | null) => void> = []

  function start(): void {
    inFlight = true
    const batch = waiting
    waiting = []
    let target: number
    try {
      target = descriptor()
    } catch (err) {
      inFlight = false
      for (const done of batch) done(err as Error)
      return
    }
    fsync(target, err => {
      inFlight = false
      for (const done of batch) done(err)
      if (waiting.length > 0) start()
      else if (closing) release()
    })
  }

  return {
    sync(done) {
      // Commits made while an fsync is running wait for the next one: that one started too early
      // to be sure to cover them.
      waiting.push(done)
      if (!inFlight) start()
    },
    syncNow() {
      fsyncSync(descriptor())
    },
    close() {
      // An fsync still running keeps the descriptor until it returns.
      closing = true
      if (!inFlight) release()
    },
  }

  function release(): void {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  }
}

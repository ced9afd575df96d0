import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { features } from '../../src/app.js'
import { tablesOf } from '../../src/http/feature.js'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import { createStore, type Store } from '../../src/store/index.js'

/** A database file of its own, in a new temporary folder: what a test of a restart opens twice. */
export const databaseFile = (prefix: string): string =>
  join(mkdtempSync(join(tmpdir(), `${prefix}-`)), 'sandbox.db')

/**
 * The store over the file at `path` as a process opens it (migrated, with every feature's tables),
 * and its close as a process closes.
 */
export function openStore(path: string): { store: Store; close: () => void } {
  const db = openDatabase(path)
  const store = createStore(db, { tables: tablesOf(features) })
  return {
    store,
    close: () => {
      store.close()
      closeDatabase(db)
    },
  }
}

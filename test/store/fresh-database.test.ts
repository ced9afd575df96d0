import { cpSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import {
  closeDatabase,
  type Db,
  MIGRATIONS_DIR,
  openDatabase,
  writeFreshDatabase,
} from '../../src/store/engine/db.js'

// A new DB_PATH starts as a copy of the database the build migrated (src/store/engine/db.ts,
// `copyFreshDatabase`): it must be the database the migrations would have made, opened as any other
// (WAL, the lock), and be used only for the migrations it was made by.

/** Everything a database holds: its schema, its version, its settings and every row. */
function contents(db: Db): unknown {
  const schema = db
    .prepare<[], { type: string; name: string; sql: string | null }>(
      'SELECT type, name, sql FROM sqlite_master ORDER BY type, name',
    )
    .all()
  const rows = schema
    .filter(o => o.type === 'table' && !o.name.startsWith('sqlite_'))
    .map(t => [t.name, db.prepare(`SELECT * FROM "${t.name}"`).raw().all()])
  const settings = ['user_version', 'page_size', 'auto_vacuum', 'freelist_count', 'encoding'].map(p =>
    db.pragma(p, { simple: true }),
  )
  return { schema, rows, settings }
}

const newFolder = () => mkdtempSync(join(tmpdir(), 'fresh-db-'))

describe('a new database', () => {
  it('copied from the build’s is the one the migrations make, in WAL mode and locked', () => {
    const fresh = newFolder()
    const made = writeFreshDatabase(fresh)
    const folder = newFolder()
    const copied = openDatabase(join(folder, 'copied.db'), MIGRATIONS_DIR, fresh)
    const migrated = openDatabase(join(folder, 'migrated.db'), MIGRATIONS_DIR, newFolder())
    try {
      expect(contents(copied)).toEqual(contents(migrated))
      expect(copied.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(copied.pragma('locking_mode', { simple: true })).toBe('exclusive')
      expect(copied.pragma('foreign_keys', { simple: true })).toBe(1)
      // Another process on the same file is refused, as on any other.
      expect(() => openDatabase(join(folder, 'copied.db'), MIGRATIONS_DIR, fresh)).toThrow(
        /is in use by another/,
      )
      // Nothing left beside it but SQLite's own files and the holder's note.
      expect(readdirSync(folder).sort()).toEqual([
        'copied.db',
        'copied.db-holder',
        'copied.db-wal',
        'migrated.db',
        'migrated.db-holder',
        'migrated.db-wal',
      ])
      expect(statSync(join(folder, 'copied.db')).mode & 0o777).toBe(
        statSync(join(folder, 'migrated.db')).mode & 0o777,
      )
      expect(statSync(made).isFile()).toBe(true)
    } finally {
      closeDatabase(copied)
      closeDatabase(migrated)
    }
  })

  it('is the build’s file when the migrations match (a row put into it is in the copy)', () => {
    const fresh = newFolder()
    const marked = new Database(writeFreshDatabase(fresh))
    marked.exec("INSERT INTO developers (dev_key, dev_secret) VALUES ('from-the-build', 's')")
    marked.close()
    const db = openDatabase(join(newFolder(), 'new.db'), MIGRATIONS_DIR, fresh)
    try {
      expect(db.prepare('SELECT dev_key FROM developers').all()).toEqual([{ dev_key: 'from-the-build' }])
    } finally {
      closeDatabase(db)
    }
  })

  it('is not copied from a file made by other migrations: they run instead', () => {
    const migrations = newFolder()
    cpSync(MIGRATIONS_DIR, migrations, { recursive: true })
    const fresh = newFolder()
    writeFreshDatabase(fresh, migrations)
    // One more migration than the build's file was made with: it does not match any more.
    const files = readdirSync(migrations).sort()
    const next = Number(files.at(-1)!.slice(0, 3)) + 1
    writeFileSync(
      join(migrations, `${String(next).padStart(3, '0')}_later.sql`),
      'CREATE TABLE later (x INTEGER);',
    )
    const db = openDatabase(join(newFolder(), 'new.db'), migrations, fresh)
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(next)
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'later'").get()).toEqual({
        name: 'later',
      })
    } finally {
      closeDatabase(db)
    }
  })

  it('is never copied over a file that is there', () => {
    const fresh = newFolder()
    writeFreshDatabase(fresh)
    const path = join(newFolder(), 'kept.db')
    const first = openDatabase(path, MIGRATIONS_DIR, fresh)
    first.exec("INSERT INTO developers (dev_key, dev_secret) VALUES ('dk', 'ds')")
    closeDatabase(first)
    const again = openDatabase(path, MIGRATIONS_DIR, fresh)
    try {
      expect(again.prepare("SELECT dev_key FROM developers WHERE dev_key = 'dk'").get()).toEqual({
        dev_key: 'dk',
      })
    } finally {
      closeDatabase(again)
    }
  })

  it('in a folder that cannot be written is refused as before, naming the folder', () => {
    const fresh = newFolder()
    writeFreshDatabase(fresh)
    const path = join('/proc', 'new.db')
    expect(() => openDatabase(path, MIGRATIONS_DIR, fresh)).toThrow(/\/proc/)
    expect(existsSync(path)).toBe(false)
  })
})

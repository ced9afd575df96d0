import type { Engine } from '../../store/engine/index.js'

export type PushFileType = 'alias' | 'registration_id'

/** One uploaded file of file push (jpush-api.md §5.14): its ids, good until `expiresAt`. */
export interface PushFile {
  fileId: string
  appKey: string
  type: PushFileType
  fileName: string
  entries: string[]
  /** Hours, as the upload gave them; null when it did not (the default applies). */
  ttl: number | null
  createdAt: number
  expiresAt: number
}

/** A file without its ids: what listings show. */
export type PushFileInfo = Omit<PushFile, 'entries'> & { entryCount: number }

interface Row {
  file_id: string
  app_key: string
  type: string
  file_name: string
  entry_count: number
  ttl: number | null
  created_at: number
  expires_at: number
}

const toInfo = (r: Row): PushFileInfo => ({
  fileId: r.file_id,
  appKey: r.app_key,
  type: r.type as PushFileType,
  fileName: r.file_name,
  entryCount: r.entry_count,
  ttl: r.ttl,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
})

const INFO = 'file_id, app_key, type, file_name, entry_count, ttl, created_at, expires_at'

/**
 * The files of file push, per app. A file past its time is gone for every read (`now` is the
 * app's); its row is deleted by the app's next upload, so nothing but an upload writes.
 */
export function createPushFileStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO push_files (file_id, app_key, type, file_name, entries, entry_count, ttl, created_at, expires_at)
     VALUES (@fileId, @appKey, @type, @fileName, @entries, @entryCount, @ttl, @createdAt, @expiresAt)`,
  )
  const live = db.prepare<{ appKey: string; now: number }, Row>(
    `SELECT ${INFO} FROM push_files WHERE app_key = @appKey AND expires_at > @now ORDER BY created_at, rowid`,
  )
  const WHERE = 'WHERE app_key = @appKey AND file_id = @fileId AND expires_at > @now'
  const one = db.prepare<{ appKey: string; fileId: string; now: number }, Row & { entries: string }>(
    `SELECT ${INFO}, entries FROM push_files ${WHERE}`,
  )
  const info = db.prepare<{ appKey: string; fileId: string; now: number }, Row>(
    `SELECT ${INFO} FROM push_files ${WHERE}`,
  )
  const remove = db.prepare('DELETE FROM push_files WHERE app_key = @appKey AND file_id = @fileId')
  const purge = db.prepare('DELETE FROM push_files WHERE app_key = @appKey AND expires_at <= @now')

  return {
    insert(f: PushFile): void {
      insert.run({ ...f, entries: f.entries.join('\n'), entryCount: f.entries.length })
    },
    /** The app's files still in their time, oldest first. */
    list(appKey: string, now: number): PushFileInfo[] {
      return live.all({ appKey, now }).map(toInfo)
    },
    info(appKey: string, fileId: string, now: number): PushFileInfo | undefined {
      const row = info.get({ appKey, fileId, now })
      return row && toInfo(row)
    },
    /** With its ids: what a file push reads. */
    get(appKey: string, fileId: string, now: number): PushFile | undefined {
      const row = one.get({ appKey, fileId, now })
      if (!row) return undefined
      const { entryCount: _, ...info } = toInfo(row)
      return { ...info, entries: row.entries === '' ? [] : row.entries.split('\n') }
    },
    /** Whether a file of the app was there to delete. */
    delete(appKey: string, fileId: string): boolean {
      return remove.run({ appKey, fileId }).changes > 0
    },
    /** Drops the app's files past their time (an upload makes room this way). */
    purge(appKey: string, now: number): void {
      purge.run({ appKey, now })
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The files of file pushes (jpush-api.md §5.14: POST /v3/files, push to a file). */
    pushFiles: ReturnType<typeof createPushFileStore>
  }
}

import { createReadStream, createWriteStream, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import type { FastifyRequest } from 'fastify'
import type { AppResets } from '../../app-resets.js'
import type { Clock } from '../../clock.js'
import type { Config } from '../../config.js'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import { ApiError } from '../../errors.js'
import type { AppGate } from '../../http/app-gate.js'
import type { RouteBook } from '../../http/route-book.js'
import {
  CLOSED_OFFSET,
  type Row,
  RowRefused,
  SEQUENCE_COLUMNS,
  type Staging,
} from '../../store/apps/app-document.js'
import type { SequenceName } from '../../store/engine/id-blocks.js'
import { ALL_APPS } from '../../store/events/requests.js'
import type { Store } from '../../store/index.js'
import type { Faults, NewFault } from '../faults/faults.js'
import { faultSchema, toFault } from '../faults/input.js'
import { createDocumentReader, DocumentUnreadable } from './document-reader.js'
import { checkRow, FAULTS_MAX, rowCaps } from './document-rules.js'
import { withoutSecrets } from './export.js'

// POST /_sandbox/app/import (issue 33): an import is a write like any other, and never stalls the
// sandbox. In order:
// 1. The body is read as it arrives (document-reader.ts); each row is checked as the API checks
//    what it stores (document-rules.ts), against the per-app caps, and staged apart
//    (store/apps/app-document.ts). Nothing of the sandbox has changed yet.
// 2. The staged document is checked as a whole, a page at a time: every row it refers to is its
//    own (a code of a message of the document, never of another app's), no id is another app's;
//    its callback_url passes the vendor's URL check, as PATCH /_sandbox/app asks. A refusal here
//    is 400 90020 (409 90056 for an id another app holds) naming the row, and nothing changed
//    (but the sequences: they skip past the document's ids before the check, so that no other
//    app is handed one of them meanwhile — an id not given is no state anyone sees).
// 3. The app's rows are replaced a chunk at a time, each chunk a write job of a few milliseconds,
//    other requests running between them: the app closed meanwhile (its requests wait at its gate,
//    its due work is not due: CLOSED_OFFSET), then opened on the document's clock. One import
//    writes at a time (their ids were checked against the sandbox as it stood).
// The app's requests wait at its gate for the whole import: they see the app before or after it,
// never half-written.

export interface ImportDeps {
  store: Store
  clock: Clock
  config: Config
  faults: Faults
  routeBook: RouteBook
  appResets: AppResets
  appGate: AppGate
  /** The vendor's URL check of a callback_url (callbacks/url-check.ts): why it fails, or undefined. */
  checkUrl(url: string): Promise<string | undefined>
  /** Inside a write job: the app as at its first use (POST /_sandbox/reset), after a failed write. */
  resetApp(appKey: string): void
}

export interface Imported {
  rows: number
  faults: number
}

const FOREIGN_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|application\/xml|text\/xml)/i
/** Rows staged per transaction of the staging file. */
const STAGE_BATCH = 500
/** Rows a check looks at per page (each an index look-up or two). */
const CHECK_PAGE = 2000
/** Real time one chunk of the write aims at: the others wait at most this between two of theirs. */
const CHUNK_MS = 8
const CHUNK_MIN = 20
const CHUNK_MAX = 20_000
let staged = 0

/** One import writes at a time (see the header). */
let writing: Promise<unknown> = Promise.resolve()

/** A chunk size that keeps each write job near CHUNK_MS: grown or shrunk by what the last took. */
function chunker() {
  let size = 200
  return {
    get size() {
      return size
    },
    took(ms: number, rows: number) {
      if (rows < size) return
      const next = ms <= 0 ? size * 2 : Math.round((size * CHUNK_MS) / ms)
      size = Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, Math.min(next, size * 2)))
    },
  }
}

/** The document's faults, each checked as POST /_sandbox/faults checks it. */
function readFault(given: unknown, i: number, routes: RouteBook): NewFault {
  const parsed = faultSchema.safeParse(given)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const answer = issue?.code === 'custom' ? issue.params?.answer : undefined
    const why = answer instanceof ApiError ? answer.message : `${issue?.path.join('.')}: ${issue?.message}`
    throw invalidField(`faults[${i}]`, why)
  }
  try {
    return toFault(parsed.data, routes)
  } catch (err) {
    if (err instanceof ApiError) throw invalidField(`faults[${i}]`, err.message)
    throw err
  }
}

/** What the import refuses of a row, in the control plane's words. */
function refusalOf(err: RowRefused): ApiError {
  const at = `tables.${err.table}[${err.index}]`
  if (err.taken)
    return sandboxErrors.idTaken(
      `"${at}": ${err.why}: import into a fresh sandbox (DB_PATH=:memory:), or one that does not share the document's ids`,
    )
  return invalidField(err.column ? `${at}.${err.column}` : at, err.why)
}

/**
 * Reads the body of `req` as the document of `appKey` and makes the app hold what it says.
 * `members` checks each top-level member as it arrives (format and version first).
 */
export async function importDocument(
  deps: ImportDeps,
  req: FastifyRequest,
  appKey: string,
  readMember: (key: string, value: unknown) => void,
): Promise<Imported> {
  const { store } = deps
  const body = req.bodyStream
  const media = String(req.headers['content-type'] ?? '').trim()
  if (FOREIGN_MEDIA.test(media)) throw sandboxErrors.mediaNotSupported()
  if (!body) throw sandboxErrors.missingBody()
  const stagingPath = join(tmpdir(), `jiguang-import-${process.pid}-${++staged}.db`)
  const staging = store.appDocument.stage(stagingPath)
  try {
    const read = await readInto(deps, staging, stagingPath, body, readMember)
    const apps = staging.counts.get('apps') ?? 0
    if (apps !== 1) throw invalidField('tables.apps', 'must hold the one row of the app')
    const now = read.members.clock
    if (typeof now !== 'number' || !Number.isSafeInteger(now))
      throw invalidField('clock.now', 'required: the app clock (epoch ms) when exported')
    const appRow = staging.only('apps')!
    const url = appRow.callback_url
    if (typeof url === 'string') {
      const why = await deps.checkUrl(url)
      if (why) throw invalidField('tables.apps[0].callback_url', `the vendor's URL check failed: ${why}`)
    }
    // Whatever is given now (another app's send) is above the document's ids.
    await store.write(() => {
      for (const [name, places] of Object.entries(SEQUENCE_COLUMNS) as Array<
        [SequenceName, (typeof SEQUENCE_COLUMNS)['msg_id']]
      >)
        for (const [table, column] of places)
          store.sequences.skipPast(name, staging.largest(table, column, name === 'push_msg_id' ? 3 : 0))
    })
    const turnToWrite = writing.then(() => {})
    let release = () => {}
    writing = new Promise<void>(resolve => {
      release = resolve
    })
    await turnToWrite
    try {
      await checkStaged(store, staging, appKey)
      await writeStaged(deps, staging, appKey, now, read.developer)
    } finally {
      release()
    }
    for (const f of read.faults) deps.faults.restore(appKey, f)
    let rows = 0
    for (const n of staging.counts.values()) rows += n
    return { rows, faults: read.faults.length }
  } catch (err) {
    if (err instanceof RowRefused) throw refusalOf(err)
    if (err instanceof DocumentUnreadable)
      throw err.at === undefined
        ? new ApiError(
            400,
            sandboxErrors.notAnObject().code,
            `the body must be a JSON object: ${err.message}`,
          )
        : invalidField(err.at, err.message)
    throw err
  } finally {
    staging.close()
  }
}

interface Read {
  members: Record<string, unknown>
  faults: NewFault[]
  developer: { frozen: boolean; balances: Record<string, number | null> } | undefined
}

/** Step 1: the body, as it arrives, checked row by row into the staging file. */
function readInto(
  deps: ImportDeps,
  staging: Staging,
  stagingPath: string,
  body: NodeJS.ReadableStream,
  readMember: (key: string, value: unknown) => void,
): Promise<Read> {
  const { store, config } = deps
  const caps = Object.entries(rowCaps(config))
  const capsOf = (table: string) => caps.filter(([key, cap]) => (cap.of?.table ?? key) === table)
  const members: Record<string, unknown> = {}
  const faults: NewFault[] = []
  const seen = new Set<string>()
  let batch: Array<{ index: number; row: Row }> = []
  let batchTable = ''
  const counts = new Map<string, number>()
  const flush = () => {
    if (batch.length > 0) staging.add(batchTable, batch)
    batch = []
  }
  const reader = createDocumentReader({
    member(key, value) {
      readMember(key, value)
      if (key === 'clock') {
        const now = (value as { now?: unknown } | null)?.now
        members.clock = now
      } else members[key] = value
    },
    table(name) {
      flush()
      if (!store.appDocument.table(name))
        throw invalidField(`tables.${name}`, 'no such table in this sandbox')
      if (seen.has(name)) throw invalidField(`tables.${name}`, 'is given twice')
      seen.add(name)
      batchTable = name
    },
    row(name, index, value) {
      const table = store.appDocument.table(name)!
      const at = `tables.${name}[${index}]`
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw invalidField(at, 'must be an object: column → value')
      const row = value as Row
      for (const c of Object.keys(row)) {
        if (!table.exported.includes(c)) throw invalidField(`${at}.${c}`, `no such column of ${name}`)
        const v = row[c]
        if (
          v !== null &&
          typeof v === 'object' &&
          (Object.keys(v).length !== 1 || typeof v.base64 !== 'string')
        )
          throw invalidField(`${at}.${c}`, 'must be a string, a number, null or {"base64": …}')
      }
      const wrong = checkRow(table, row)
      if (wrong) throw new RowRefused(name, index, wrong.column, wrong.why)
      for (const [key, cap] of capsOf(name)) {
        if (cap.of && !cap.of.counts(row)) continue
        const n = (counts.get(key) ?? 0) + 1
        counts.set(key, n)
        if (n > cap.max)
          throw invalidField(
            `tables.${name}`,
            `holds more than ${cap.max} rows${cap.of?.what ? ` ${cap.of.what}` : ''}, the most one app may hold (${cap.why})`,
          )
      }
      batch.push({ index, row: withoutSecrets(name, row) })
      if (batch.length >= STAGE_BATCH) flush()
    },
    fault(index, value) {
      if (index >= FAULTS_MAX)
        throw invalidField(
          'faults',
          `at most ${FAULTS_MAX} faults may be armed at once, as POST /_sandbox/faults says`,
        )
      faults.push(readFault(value, index, deps.routeBook))
    },
  })
  return (async () => {
    // The body goes to a file as fast as it arrives (the client is done sending long before the
    // rows are checked: REQUEST_TIMEOUT_MS counts until the body's end), then is read from there.
    const spool = `${stagingPath}.json`
    try {
      const bytes = await spoolBody(body, spool, config.maxImportBytes)
      if (bytes === 0) throw sandboxErrors.missingBody()
      for await (const chunk of createReadStream(spool, { highWaterMark: 64 * 1024 })) {
        reader.write(chunk as Buffer)
        // Every other request runs between two chunks.
        await turn()
      }
      reader.end()
      flush()
    } finally {
      rmSync(spool, { force: true })
    }
    if (!('format' in members)) readMember('format', undefined)
    if (!('version' in members)) readMember('version', undefined)
    return { members, faults, developer: developerOf(members.developer) }
  })()
}

/**
 * Writes the request's body into `path`, at most `max` bytes (beyond: 413, and the rest is not
 * read: the connection closes). Resolves with the bytes written once the body has ended.
 */
function spoolBody(body: NodeJS.ReadableStream, path: string, max: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const out = createWriteStream(path)
    let bytes = 0
    let failed = false
    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      body.removeListener('data', onData)
      out.destroy()
      reject(err)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > max)
        return fail(
          new ApiError(
            413,
            sandboxErrors.bodyTooLarge().code,
            `the document is over ${max} bytes, the most an import takes (MAX_IMPORT_BYTES)`,
          ),
        )
      // The file takes it as fast as the disk does; the client waits only for the disk.
      if (!out.write(chunk)) {
        body.pause()
        out.once('drain', () => body.resume())
      }
    }
    body.on('data', onData)
    body.once('error', fail)
    out.once('error', fail)
    body.once('end', () => {
      if (failed) return
      out.end(() => resolve(bytes))
    })
  })
}

/** The document's `developer`: its standing and balances, as the export writes them. */
function developerOf(given: unknown): Read['developer'] {
  if (given === undefined || given === null) return undefined
  const d = given as Record<string, unknown>
  const quota = (k: string) => {
    const v = d[k]
    if (v === null || v === undefined) return null
    if (!Number.isSafeInteger(v) || (v as number) < 0)
      throw invalidField(`developer.${k}`, 'must be a whole number, 0 or more, or null')
    return v as number
  }
  if (typeof d.frozen !== 'boolean') throw invalidField('developer.frozen', 'must be true or false')
  return {
    frozen: d.frozen,
    balances: {
      balance: quota('balance'),
      voice: quota('voice'),
      industry: quota('industry'),
      market: quota('market'),
    },
  }
}

/** Step 2: the staged rows against each other and the sandbox, a page at a time. */
async function checkStaged(store: Store, staging: Staging, appKey: string): Promise<void> {
  for (const t of store.appDocument.tables) {
    let after: number | null = 0
    while (after !== null) {
      after = staging.check(appKey, t.name, after, CHECK_PAGE)
      await turn()
    }
  }
}

/** Runs `step` in write jobs until it says it is done, each job near CHUNK_MS (see chunker). */
async function inChunks(store: Store, step: (limit: number) => number | null): Promise<void> {
  const size = chunker()
  for (;;) {
    const limit = size.size
    const { done, ms, rows } = await store.write(() => {
      const t0 = performance.now()
      const n = step(limit)
      return { done: n === null, ms: performance.now() - t0, rows: n ?? 0 }
    })
    if (done) return
    size.took(ms, rows)
  }
}

/** Step 3: the app closed, its rows replaced a chunk at a time, then opened on the document's clock. */
async function writeStaged(
  deps: ImportDeps,
  staging: Staging,
  appKey: string,
  now: number,
  developer: Read['developer'],
): Promise<void> {
  const { store, clock } = deps
  const { removal } = store.appDocument
  let largestSeq = 0
  for (const t of store.appDocument.tables)
    if (t.exported.includes('seq')) largestSeq = Math.max(largestSeq, staging.largest(t.name, 'seq'))
  let idleSince: number | null = null
  await store.write(() => {
    if (!store.apps.get(appKey)) throw sandboxErrors.authFailed()
    // Read before the rows go: the app expires when idle as it did (app-expiry.ts). Its seqs go
    // on from where they were: the removal carries its counter over (store/engine/item-seqs.ts).
    idleSince = store.activity.idleSince(appKey)
    store.seqs.skipPast(appKey, largestSeq)
    store.apps.setClockOffset(appKey, CLOSED_OFFSET)
  })
  try {
    // The app's rows, children first (the apps row stays).
    let from = 0
    await inChunks(store, limit => {
      const { table, more } = removal.step(appKey, limit, from)
      from = table
      return more ? limit : null
    })
    for (const t of store.appDocument.tables) {
      if (t.name === 'apps') continue
      // Rows a trigger made meanwhile (a device's session) give way to the document's.
      if (t.owned) await inChunks(store, limit => (removal.table(appKey, t.name, limit) > 0 ? limit : null))
      let after = 0
      await inChunks(store, limit => {
        const extra: Record<string, number> =
          t.name === 'app_activity' ? { activity: store.activity.next() } : {}
        // A review's result is renumbered: nothing refers to it (sms/reviews/table.ts).
        const leaveOut = t.name === 'review_events' ? ['id'] : []
        const upto = staging.write(appKey, t.name, after, limit, extra, leaveOut)
        if (upto === null) return null
        const n = upto - after
        after = upto
        return n
      })
    }
    await store.write(() => {
      const app = store.apps.get(appKey)
      if (!app) throw sandboxErrors.authFailed()
      // The importing app keeps its own group (its credentials): the document has none (export.ts).
      const settings = JSON.parse(String(staging.only('apps')!.settings ?? '{}')) as Record<string, unknown>
      delete settings.group
      if (app.settings.group !== undefined) settings.group = app.settings.group
      staging.finish(appKey, { settings: JSON.stringify(settings) })
      store.apps.setClockOffset(appKey, now - clock.now())
      if ((staging.counts.get('app_activity') ?? 0) === 0) store.activity.created(appKey)
      store.activity.expiresWhenIdle(appKey, idleSince === null ? null : clock.now())
      // The developer account follows, unless another app shares it (the default one, a seed
      // file's): then it stays as it is, so no other app changes.
      if (developer && store.apps.otherUsersOf(app.devKey, appKey) === 0) {
        const dev = store.apps.developer(app.devKey)
        if (dev) store.apps.saveDeveloper({ ...dev, frozen: developer.frozen })
        store.apps.setDeveloperBalances(app.devKey, developer.balances as never)
      }
      // What memory holds of the app (faults, rate windows, callbacks on the wire) is forgotten,
      // its held requests answered, the operator's live list told.
      deps.appResets.reset(appKey)
      store.seqs.mark(appKey, 'reset')
      store.seqs.mark(ALL_APPS, 'requests')
    })
  } catch (err) {
    // SQLite failed half-way (a full disk, say): nothing half-written stays, the app is reset.
    await store
      .write(() => deps.resetApp(appKey))
      .catch(() => {
        // Left closed: the next start resets it (app.ts).
      })
    throw new ApiError(
      500,
      sandboxErrors.serverError().code,
      `the import failed while writing (${(err as Error).message}): the app was reset`,
    )
  }
}

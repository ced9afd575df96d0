import { z } from 'zod'
import type { AppResets } from '../../app-resets.js'
import type { Clock } from '../../clock.js'
import { ApiError } from '../../errors.js'
import type { RouteBook } from '../../http/route-book.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import { type Row, RowRefused, type Tables } from '../../store/apps/app-document.js'
import type { SequenceName } from '../../store/engine/id-blocks.js'
import { ALL_APPS } from '../../store/events/requests.js'
import type { Store } from '../../store/index.js'
import { invalidField, sandboxErrors } from '../errors.js'
import type { Fault, Faults } from '../faults/faults.js'
import { faultSchema, toFault } from '../faults/input.js'

// An app's document: everything the app holds, in one versioned JSON document, so that a CI job
// whose test failed keeps it as an artifact, and a laptop loads it to look (docs/testing.md).
// GET /_sandbox/app/export writes it; POST /_sandbox/app/import makes the calling app hold exactly
// what it says, in one write (a document refused changes nothing).
//
// What it holds: every row of the app in every table, as SQLite holds them (store/apps/
// app-document.ts: settings, balances, templates, signatures and their reviews, messages, codes,
// schedules, reports, replies, callbacks and their attempts, devices, tags, aliases, pushes and
// deliveries, push schedules, events, the request journal…), its developer's standing and
// balances, its clock, its armed faults. Not its appKey, masterSecret or developer account:
// whoever imports keeps their own.
//
// Ids are kept (msg_id, temp_id, schedule_id, a callback's id…), so the journal's bodies and the
// events still name the rows they named. Most are global in a sandbox (one msg_id names one
// message of one app), so an id another app of the target sandbox already holds is refused (409
// 90056, nothing imported): the document of another sandbox goes into a fresh one, or one whose
// ids it does not share. The target's sequences then skip past the document's ids, so it never
// gives them again.

export const DOCUMENT_FORMAT = 'jiguang-sandbox/app' as const
export const DOCUMENT_VERSION = 1 as const
/** A document holds every row of an app: far more than the 1 MiB of other bodies. */
const IMPORT_LIMIT = 256 * 1024 * 1024

/** A column's value; a BLOB's bytes (an image, a certificate) as `{"base64": …}`. */
const value = z.union([z.string(), z.number(), z.null(), z.object({ base64: z.base64() }).strict()])
const row = z.record(z.string(), value)
const quota = z.number().nullable()
const developer = z.object({
  frozen: z.boolean(),
  balance: quota,
  voice: quota,
  industry: quota,
  market: quota,
})
const fault = z.record(z.string(), z.unknown())

/** The document as exported (its schema is the answer's allow-list, and the client's type). */
export const appDocument = z.object({
  format: z.literal(DOCUMENT_FORMAT),
  version: z.literal(DOCUMENT_VERSION),
  /** The app it was exported from (an import keeps the importing app's own). */
  app_key: z.string(),
  /** The sandbox's schema version (its last migration) when exported. */
  sandbox_schema: z.number(),
  /** The app's clock when exported (epoch ms): an imported app's clock goes on from there. */
  clock: z.object({ now: z.number() }),
  /** The standing and balances of the app's developer account. */
  developer,
  /** The armed faults, as POST /_sandbox/faults takes them (`times`: what is left). */
  faults: z.array(fault),
  /** Every row of the app, by table, as SQLite holds them (JSON settings as text). */
  tables: z.record(z.string(), z.array(row)),
})

export type AppDocument = z.output<typeof appDocument>

const readFormat = (v: unknown) => {
  if (v !== DOCUMENT_FORMAT)
    throw invalidField('format', `must be "${DOCUMENT_FORMAT}": not a document of GET /_sandbox/app/export`)
  return DOCUMENT_FORMAT
}
const readVersion = (v: unknown) => {
  if (v !== DOCUMENT_VERSION)
    throw invalidField(
      'version',
      `this sandbox reads version ${DOCUMENT_VERSION} of the document, not ${JSON.stringify(v ?? null)}`,
    )
  return DOCUMENT_VERSION
}

/** What POST /_sandbox/app/import takes: format and version first, so they are named first. */
const importBody = z.object({
  format: readBy(readFormat, { type: 'string', const: DOCUMENT_FORMAT }),
  version: readBy(readVersion, { type: 'integer', const: DOCUMENT_VERSION }),
  app_key: z.string().optional(),
  sandbox_schema: z.number().optional(),
  clock: z.object({ now: z.number().int() }),
  developer: developer.optional(),
  faults: z.array(fault).optional(),
  tables: z.record(z.string(), z.array(row)),
})

export const importedAnswer = z.object({
  app_key: z.string(),
  imported: z.literal(true),
  rows: z.number(),
  faults: z.number(),
})

type Deps = {
  store: Store
  clock: Clock
  faults: Faults
  routeBook: RouteBook
  appResets: AppResets
}

/** A fault as POST /_sandbox/faults takes it: arming it again makes the same fault. */
function faultInput(f: Fault): Record<string, unknown> {
  return {
    path: f.path,
    ...(f.method === null ? {} : { method: f.method }),
    ...(f.error === null ? {} : { code: f.error.code, status: f.error.status, message: f.error.message }),
    ...(f.delayMs === 0 ? {} : { delay_ms: f.delayMs }),
    times: f.remaining,
    ...(f.match === null ? {} : { match: f.match }),
  }
}

/** The document's faults, each checked as POST /_sandbox/faults checks it. */
function readFaults(given: Array<Record<string, unknown>>, routes: RouteBook) {
  return given.map((f, i) => {
    const parsed = faultSchema.safeParse(f)
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
  })
}

/** Every table known, every column the table's own, exactly one `apps` row. */
function checkTables(store: Store, tables: Tables): void {
  for (const [name, rows] of Object.entries(tables)) {
    const columns = store.appDocument.columnsOf(name)
    if (!columns) throw invalidField(`tables.${name}`, 'no such table in this sandbox')
    rows.forEach((r, i) => {
      for (const c of Object.keys(r))
        if (!columns.includes(c)) throw invalidField(`tables.${name}[${i}].${c}`, `no such column of ${name}`)
    })
  }
  if (tables.apps?.length !== 1) throw invalidField('tables.apps', 'must hold the one row of the app')
}

/** What SQLite refused of a row, in the control plane's words (nothing was imported). */
function refusalOf(err: RowRefused, tables: Tables): ApiError {
  const at = `tables.${err.table}[${err.index}]`
  const code = err.refusal.code ?? ''
  const columns = /constraint failed: (.+)$/
    .exec(err.message)?.[1]
    ?.split(', ')
    .map(c => c.split('.')[1] ?? c)
  if ((code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') && columns) {
    const key = columns.map(c => `${c} ${err.row[c]}`).join(', ')
    const same = (r: Row) => columns.every(c => r[c] === err.row[c])
    if ((tables[err.table] ?? []).filter(same).length > 1) return invalidField(at, `${key} is there twice`)
    return sandboxErrors.idTaken(
      `"${at}": ${key} is held by another app of this sandbox: import into a fresh sandbox (DB_PATH=:memory:), or one that does not share the document's ids`,
    )
  }
  if (code === 'SQLITE_CONSTRAINT_NOTNULL' && columns) return invalidField(`${at}.${columns[0]}`, 'required')
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return invalidField(at, 'refers to a row the document does not hold')
  return invalidField(at, err.message)
}

const EXPORT_DOC = `Everything the app holds, as one versioned JSON document (\`format\`, \`version\`): every row of
the app in every table (settings, balances, templates, signatures and their reviews, messages and
codes, schedules, reports, replies, callbacks and their attempts, devices, tags, aliases, pushes and
their deliveries, push schedules, events, the request journal…), its developer's standing and
balances, its clock and its armed faults. Not its credentials. Keep it as a CI job's artifact when a
test fails; POST /_sandbox/app/import loads it into an app of any sandbox (docs/testing.md).`

const IMPORT_DOC = `Makes the calling app hold exactly what the document says, in one write: everything it held
before is gone (as with a reset), its appKey, masterSecret and developer account stay its own, its
clock goes on from the document's, its faults are armed again. Ids are kept: an id another app of
this sandbox holds is refused (409 90056), and the sandbox never hands out the document's ids again.
A document of another format or version, or one that does not read, is refused (400 naming what is
wrong) and nothing changes. The import is the one write to /_sandbox the request journal does not
keep: exporting again gives back the document.`

/** GET /_sandbox/app/export and POST /_sandbox/app/import. */
export function transferRoutes(deps: Deps): RouteSpec[] {
  const { store, clock, faults } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/app/export',
      docs: {
        summary: "The app's document: everything it holds, to keep or to import",
        description: EXPORT_DOC,
      },
      schema: { response: { 200: appDocument } },
      handler: async (req, reply) => {
        const { appKey } = req.tenant.app
        // The journal's entries of the requests answered before this one are in it.
        await store.requests.settled()
        const app = store.apps.get(appKey)
        if (!app) throw sandboxErrors.authFailed()
        const dev = store.apps.developer(app.devKey)
        const devBalances = store.apps.developerBalances(app.devKey)
        reply.header('content-disposition', `attachment; filename="${appKey}.json"`)
        return {
          format: DOCUMENT_FORMAT,
          version: DOCUMENT_VERSION,
          app_key: appKey,
          sandbox_schema: store.db.pragma('user_version', { simple: true }) as number,
          clock: { now: clock.now() + app.clockOffsetMs },
          developer: {
            frozen: dev?.frozen ?? false,
            balance: devBalances?.balance ?? null,
            voice: devBalances?.voice ?? null,
            industry: devBalances?.industry ?? null,
            market: devBalances?.market ?? null,
          },
          faults: faults.list(appKey).map(faultInput),
          tables: store.appDocument.read(appKey),
        }
      },
    }),
    schemaRoute({
      method: 'POST',
      url: '/app/import',
      bodyLimit: IMPORT_LIMIT,
      // It replaces the journal with the document's: its own entry would be the one thing added.
      config: { journal: false },
      docs: {
        summary: 'Make the app hold exactly what a document of GET /_sandbox/app/export says',
        description: IMPORT_DOC,
        errors: [
          sandboxErrors.invalidField('"version": this sandbox reads version 1 of the document, not 2'),
          sandboxErrors.idTaken(
            '"tables.messages[0]": msg_id <msg_id> is held by another app of this sandbox: import into a fresh sandbox',
          ),
        ],
      },
      schema: { body: importBody, response: { 200: importedAnswer } },
      handler: async req => {
        const doc = req.body
        const { tables } = doc
        checkTables(store, tables)
        const armed = readFaults(doc.faults ?? [], deps.routeBook)
        const { appKey } = req.tenant.app
        // Entries of the requests answered before it are written before it replaces them.
        await store.requests.settled()
        await store.write(() => {
          const app = store.apps.get(appKey)
          if (!app) throw sandboxErrors.authFailed()
          // Read before the rows go: seqs go on from where they were (events/hub.ts), and the app
          // expires when idle as it did (app-expiry.ts).
          store.seqs.current(appKey)
          const idleSince = store.activity.idleSince(appKey)
          store.appRows.remove(appKey)
          try {
            store.appDocument.write(appKey, tables, {
              apps: {
                master_secret: app.masterSecret,
                dev_key: app.devKey,
                clock_offset_ms: doc.clock.now - clock.now(),
              },
              app_activity: { activity: store.activity.next() },
            })
          } catch (err) {
            throw err instanceof RowRefused ? refusalOf(err, tables) : err
          }
          if (!tables.app_activity?.length) store.activity.created(appKey)
          store.activity.expiresWhenIdle(appKey, idleSince === null ? null : clock.now())
          // The developer account follows, unless another app shares it (the default one, a seed
          // file's): then it stays as it is, so no other app changes.
          if (doc.developer && store.apps.otherUsersOf(app.devKey, appKey) === 0) {
            const { frozen, ...balances } = doc.developer
            const dev = store.apps.developer(app.devKey)
            if (dev) store.apps.saveDeveloper({ ...dev, frozen })
            store.apps.setDeveloperBalances(app.devKey, balances)
          }
          for (const [name, id] of Object.entries(store.appDocument.largestIds(tables)))
            store.sequences.skipPast(name as SequenceName, id)
          store.seqs.skipPast(appKey, largestSeq(tables))
          // What memory holds of the app (faults, rate windows, callbacks on the wire) is forgotten,
          // its held requests answered, the operator's live list told.
          deps.appResets.reset(appKey)
          store.seqs.mark(appKey, 'reset')
          store.seqs.mark(ALL_APPS, 'requests')
        })
        for (const f of armed) faults.restore(appKey, f)
        const rows = Object.values(tables).reduce((n, r) => n + r.length, 0)
        return { app_key: appKey, imported: true as const, rows, faults: armed.length }
      },
    }),
  ]
}

/** The largest seq any row of the document carries. */
function largestSeq(tables: Tables): number {
  let max = 0
  for (const rows of Object.values(tables))
    for (const r of rows) if (typeof r.seq === 'number' && r.seq > max) max = r.seq
  return max
}

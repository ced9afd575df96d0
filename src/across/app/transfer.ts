import { z } from 'zod'
import type { AppResets } from '../../app-resets.js'
import type { Courier } from '../../callbacks/courier.js'
import type { Clock } from '../../clock.js'
import type { Config } from '../../config.js'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import type { AppGate } from '../../http/app-gate.js'
import type { RouteBook } from '../../http/route-book.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import type { Held } from '../../limits/held.js'
import { reprovision } from '../../seed/reprovision.js'
import type { SeedFile } from '../../seed/seed-file.js'
import type { Store } from '../../store/index.js'
import type { Fault, Faults } from '../faults/faults.js'
import { exportStream } from './export.js'
import { importDocument } from './import.js'

// An app's document: everything the app holds, in one versioned JSON document, so that a CI job
// whose test failed keeps it as an artifact, and a laptop loads it to look (docs/testing.md).
// GET /_sandbox/app/export writes it (export.ts); POST /_sandbox/app/import makes the calling app
// hold exactly what it says (import.ts): a document refused changes nothing.
//
// What it holds: every row of the app in every table, as SQLite holds them (store/apps/
// app-document.ts: settings, balances, templates, signatures and their reviews, messages, codes,
// schedules, reports, replies, callbacks and their attempts, devices, tags, aliases, pushes and
// deliveries, push schedules, events, the request journal…), its developer's standing and
// balances, its clock, its armed faults. Not its appKey, masterSecret, developer account or push
// group, nor any secret (export.ts): whoever imports keeps their own.
//
// Ids are kept (msg_id, temp_id, schedule_id, a callback's id…), so the journal's bodies and the
// events still name the rows they named. Most are global in a sandbox (one msg_id names one
// message of one app), so an id another app of the target sandbox already holds is refused (409
// 90056, nothing imported): the document of another sandbox goes into a fresh one, or one whose
// ids it does not share. The target's sequences then skip past the document's ids, so it never
// gives them again; an id beyond half its sequence's range is refused (store/engine/id-blocks.ts).
//
// Both stream (issue 33): neither holds the document in memory, and other requests run between
// the pages it reads and the chunks it writes. Each is one of the transfers a client, and the
// sandbox, may have under way at once (MAX_TRANSFERS_PER_CLIENT, MAX_TRANSFERS: limits/held.ts).

export const DOCUMENT_FORMAT = 'jiguang-sandbox/app' as const
export const DOCUMENT_VERSION = 1 as const

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
  config: Config
  faults: Faults
  routeBook: RouteBook
  appResets: AppResets
  appGate: AppGate
  held: Pick<Held, 'transfers'>
  courier: Pick<Courier, 'checkUrl'>
  seed: SeedFile
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

/** A top-level member of a document being imported, checked as it arrives (format and version first). */
function readMember(key: string, value: unknown): void {
  if (key === 'format') readFormat(value)
  else if (key === 'version') readVersion(value)
  else if (key === 'clock') {
    const now = (value as { now?: unknown } | null)?.now
    if (typeof value !== 'object' || value === null || !Number.isSafeInteger(now))
      throw invalidField('clock.now', 'must be the app clock (epoch ms) when exported')
  }
}

const EXPORT_DOC = `Everything the app holds, as one versioned JSON document (\`format\`, \`version\`): every row of
the app in every table (settings, balances, templates, signatures and their reviews, messages and
codes, schedules, reports, replies, callbacks and their attempts, devices, tags, aliases, pushes and
their deliveries, push schedules, events, the request journal…), its developer's standing and
balances, its clock and its armed faults. Not its credentials, and no secret. Written as the client
reads it, a page of rows at a time. Keep it as a CI job's artifact when a test fails; POST
/_sandbox/app/import loads it into an app of any sandbox (docs/testing.md).`

const IMPORT_DOC = `Makes the calling app hold exactly what the document says: everything it held before is gone (as
with a reset), its appKey, masterSecret, developer account and push group stay its own, its clock
goes on from the document's, its faults are armed again. The body is read as it arrives (at most
MAX_IMPORT_BYTES); every row is checked as the API checks what it stores (types, ranges, JSON
columns, the app's caps, rows it refers to being the document's own, ids within half their range,
the callback_url through the vendor's URL check): a document refused is 400 naming the row and
column, and nothing changes. Ids are kept: an id another app of this sandbox holds is refused (409
90056), and the sandbox never hands out the document's ids again. The rows are written a chunk at
a time while the app's other requests wait. The import is the one write to /_sandbox the request
journal does not keep: exporting again gives back the document.`

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
        const client = req.ip
        // Let go once the document is written out, or at once if refused (a second call is a no-op).
        const give = deps.held.transfers.take(client)
        try {
          const app = store.apps.get(appKey)
          if (!app) throw sandboxErrors.authFailed()
          const dev = store.apps.developer(app.devKey)
          const devBalances = store.apps.developerBalances(app.devKey)
          const head = {
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
          }
          reply.header('content-disposition', `attachment; filename="${appKey}.json"`)
          reply.type('application/json; charset=utf-8')
          // Written as the client reads it, a page of rows at a time (export.ts).
          return reply.send(exportStream(store, appKey, head, give))
        } catch (err) {
          give()
          throw err
        }
      },
    }),
    schemaRoute({
      method: 'POST',
      url: '/app/import',
      bodyLimit: deps.config.maxImportBytes,
      docs: {
        summary: 'Make the app hold exactly what a document of GET /_sandbox/app/export says',
        description: IMPORT_DOC,
        // Documented only: the body is read as it arrives, by import.ts.
        body: importBody,
        errors: [
          sandboxErrors.invalidField('"version": this sandbox reads version 1 of the document, not 2'),
          sandboxErrors.idTaken(
            '"tables.messages[0]": msg_id <msg_id> is held by another app of this sandbox: import into a fresh sandbox',
          ),
        ],
      },
      // It replaces the journal with the document's: its own entry would be the one thing added.
      // Read as it arrives (import.ts): the body never sits whole in memory.
      config: { journal: false, body: 'stream' },
      schema: { response: { 200: importedAnswer } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const client = req.ip
        const letGo = deps.held.transfers.take(client)
        // The app's other requests wait until it is done (import.ts).
        const open = deps.appGate.close(appKey)
        try {
          const imported = await importDocument(
            {
              ...deps,
              checkUrl: url => deps.courier.checkUrl(url),
              resetApp: key => {
                const app = store.apps.get(key)
                if (app) reprovision(deps, app, clock.now())
              },
            },
            req,
            appKey,
            readMember,
          )
          return { app_key: appKey, imported: true as const, rows: imported.rows, faults: imported.faults }
        } finally {
          open()
          letGo()
        }
      },
    }),
  ]
}

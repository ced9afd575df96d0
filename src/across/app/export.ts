import { Readable } from 'node:stream'
import { setImmediate as turn } from 'node:timers/promises'
import { redact } from '../../http/journal.js'
import type { DocumentTable, Row } from '../../store/apps/app-document.js'
import { eventData } from '../../store/events/log.js'
import type { Store } from '../../store/index.js'

// GET /_sandbox/app/export as a stream (issue 33): the document's JSON is written as the client
// reads it, a page of rows at a time, with a turn of the event loop between pages, so an app at
// the caps (100 000 devices, 400 000 deliveries: 120 MB) costs the others a page's time at most,
// and the process holds a page, not the document. Which rows a page sees: store/apps/app-document.ts.

/** What the document says before its tables (transfer.ts: the format, the clock, the faults…). */
export type DocumentHead = Record<string, unknown>

/**
 * A row as it may leave the sandbox: no secret in an artifact. The app's settings keep no group
 * (its `master_secret` is the group's credential: an import keeps the importing app's own group),
 * an app event no developer secret (events stored before issue 33 had it), a journaled body no
 * secret a request or answer held before redaction covered it.
 */
export function withoutSecrets(table: string, row: Row): Row {
  if (table === 'apps' && typeof row.settings === 'string') {
    const settings = JSON.parse(row.settings) as Record<string, unknown>
    if ('group' in settings) {
      delete settings.group
      return { ...row, settings: JSON.stringify(settings) }
    }
  }
  if (table === 'events' && typeof row.data === 'string' && typeof row.type === 'string')
    return { ...row, data: JSON.stringify(eventData(row.type, row.data)) }
  if (table === 'requests') {
    const out = { ...row }
    for (const c of ['request_body', 'answer_body'])
      if (typeof out[c] === 'string') out[c] = redact(out[c] as string)
    return out
  }
  return row
}

/**
 * The document of `appKey` as a stream of JSON text: `head`'s members, then `tables`. `done` is
 * called once, when the stream ends or is destroyed (the client left).
 */
export function exportStream(store: Store, appKey: string, head: DocumentHead, done: () => void): Readable {
  const stream = Readable.from(documentText(store, appKey, head), { objectMode: false })
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    done()
  }
  stream.once('close', end)
  stream.once('end', end)
  stream.once('error', end)
  return stream
}

async function* documentText(store: Store, appKey: string, head: DocumentHead): AsyncGenerator<string> {
  const members = Object.entries(head).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
  yield `{${members.join(',')},"tables":{`
  const reader = store.appDocument.exportReader(appKey)
  let firstTable = true
  for (const t of store.appDocument.tables) {
    yield `${firstTable ? '' : ','}${JSON.stringify(t.name)}:[`
    firstTable = false
    let firstRow = true
    for (const page of reader.pages(t.name)) {
      yield (firstRow ? '' : ',') + textOf(t, page)
      firstRow = false
      // Every other request runs before the next page is read.
      await turn()
    }
    yield ']'
  }
  yield '}}'
}

const textOf = (t: DocumentTable, page: Row[]) =>
  page.map(row => JSON.stringify(withoutSecrets(t.name, row))).join(',')

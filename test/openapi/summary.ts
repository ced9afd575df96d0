import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// A readable summary of the OpenAPI document, one block per operation: its summary, the names of
// its parameters, body and answer fields (`*`: required), and its failures by status in the
// order the document lists them. document-summary.txt is the committed floor of what the document
// says: document-summary.test.ts checks that the document still says all of it (more is fine).
// After adding to the document, write the floor again: `npx tsx test/openapi/summary.ts`.

type Schema = { properties?: Record<string, unknown>; required?: string[]; type?: string | string[] }
type Parameter = { in: string; name: string; required?: boolean }
type Response = { content?: Record<string, { schema?: Schema; examples?: Record<string, unknown> }> }
type Operation = {
  summary?: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema?: Schema }> }
  responses: Record<string, Response>
}
export type Document = { paths: Record<string, Record<string, Operation>> }

export interface OperationSummary {
  summary: string
  /** `name` or `name*`, for each part and the 200 answer. */
  fields: Record<string, string[]>
  /** By status: `code message`, in the document's order. */
  failures: Record<string, string[]>
}

const names = (schema: Schema | undefined) =>
  Object.keys(schema?.properties ?? {}).map(n => (schema?.required?.includes(n) ? `${n}*` : n))

export function summarize(doc: Document): Map<string, OperationSummary> {
  const out = new Map<string, OperationSummary>()
  for (const [path, operations] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(operations)) {
      const fields: Record<string, string[]> = {}
      for (const where of ['path', 'query']) {
        const list = (op.parameters ?? []).filter(p => p.in === where)
        if (list.length > 0) fields[where] = list.map(p => (p.required ? `${p.name}*` : p.name))
      }
      const body = Object.values(op.requestBody?.content ?? {})[0]?.schema
      if (body) fields.body = names(body)
      const answer = op.responses['200']?.content?.['application/json']?.schema
      if (answer?.properties) fields['200'] = names(answer)
      const failures: Record<string, string[]> = {}
      for (const [status, response] of Object.entries(op.responses)) {
        const examples = response.content?.['application/json']?.examples
        if (Number(status) >= 400 && examples) failures[status] = Object.keys(examples)
      }
      out.set(`${method.toUpperCase()} ${path}`, { summary: op.summary ?? '', fields, failures })
    }
  return out
}

export function render(summaries: Map<string, OperationSummary>): string {
  const blocks = [...summaries].map(([operation, s]) =>
    [
      operation,
      `  summary: ${s.summary}`,
      ...Object.entries(s.fields).map(([part, list]) => `  ${part}: ${list.join(' ')}`),
      ...Object.entries(s.failures).map(([status, list]) => `  ${status}: ${list.join(' | ')}`),
    ].join('\n'),
  )
  return `${blocks.join('\n\n')}\n`
}

export function parse(text: string): Map<string, OperationSummary> {
  const out = new Map<string, OperationSummary>()
  for (const block of text.trim().split(/\n\n+/)) {
    const [operation = '', ...lines] = block.split('\n')
    const s: OperationSummary = { summary: '', fields: {}, failures: {} }
    for (const line of lines) {
      const [, key = '', value = ''] = /^ {2}([^:]+): ?(.*)$/.exec(line) ?? []
      if (key === 'summary') s.summary = value
      else if (/^\d+$/.test(key) && key !== '200') s.failures[key] = value.split(' | ')
      else s.fields[key] = value === '' ? [] : value.split(' ')
    }
    out.set(operation, s)
  }
  return out
}

/** What of `floor` the document no longer says: each line a loss. */
export function lossesFrom(
  floor: Map<string, OperationSummary>,
  now: Map<string, OperationSummary>,
): string[] {
  const losses: string[] = []
  for (const [operation, was] of floor) {
    const is = now.get(operation)
    if (!is) {
      losses.push(`${operation}: gone`)
      continue
    }
    if (is.summary !== was.summary)
      losses.push(`${operation}: summary "${was.summary}" is now "${is.summary}"`)
    for (const [part, list] of Object.entries(was.fields)) {
      const present = is.fields[part] ?? []
      for (const name of list)
        if (!present.includes(name)) losses.push(`${operation} ${part}: ${name} (now ${present.join(' ')})`)
    }
    for (const [status, list] of Object.entries(was.failures)) {
      const present = is.failures[status] ?? []
      let at = 0
      for (const failure of list) {
        const found = present.indexOf(failure, at)
        if (found < 0) losses.push(`${operation} ${status}: "${failure}" missing or out of order`)
        else at = found + 1
      }
    }
  }
  return losses
}

export const SUMMARY_FILE = fileURLToPath(new URL('./document-summary.txt', import.meta.url))

// `npx tsx test/openapi/summary.ts`: writes the floor from the document as it is now.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { buildApp } = await import('../../src/app.js')
  const { ManualClock } = await import('../../src/clock.js')
  const { testConfig } = await import('../../src/config.js')
  const app = await buildApp(testConfig(), { clock: new ManualClock() })
  const doc = (await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json() as Document
  await app.close()
  writeFileSync(SUMMARY_FILE, render(summarize(doc)))
  console.log(`wrote ${SUMMARY_FILE}`)
}

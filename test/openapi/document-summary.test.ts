import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../helpers.js'
import { type Document, lossesFrom, parse, render, SUMMARY_FILE, summarize } from './summary.js'

// The document is derived from the routes (what they read, check and answer), so a route that
// stops declaring something would silently take it out of the document. document-summary.txt is
// the floor: every operation, its summary, the names of its parameters, body and answer fields,
// and its failures by status in order, as the document said them when it was last written
// (summary.ts). The document must still say all of it; it may say more.

describe('the OpenAPI document', () => {
  it('still says everything document-summary.txt records', async () => {
    const { app } = await createTestApp()
    const doc = (await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json() as Document
    const floor = parse(readFileSync(SUMMARY_FILE, 'utf8'))
    expect(floor.size, 'the floor names the operations').toBeGreaterThan(100)
    expect(lossesFrom(floor, summarize(doc))).toEqual([])
  })

  it('reads the summary it writes', () => {
    const floor = readFileSync(SUMMARY_FILE, 'utf8')
    expect(render(parse(floor))).toBe(floor)
  })

  it('finds what a document no longer says', () => {
    const floor = parse(
      'POST /v1/x\n  summary: X\n  body: a* b\n  403: 1 one | 2 two\n\nGET /v1/y\n  summary: Y\n',
    )
    const now = parse('POST /v1/x\n  summary: X\n  body: a b c\n  403: 2 two | 1 one | 3 three\n')
    expect(lossesFrom(floor, now)).toEqual([
      'POST /v1/x body: a* (now a b c)',
      'POST /v1/x 403: "2 two" missing or out of order',
      'GET /v1/y: gone',
    ])
  })
})

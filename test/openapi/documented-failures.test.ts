import { describe, expect, it } from 'vitest'
import type { RouteDocs } from '../../src/openapi/route-docs.js'
import { createTestApp } from '../helpers.js'
import { described, type Script, toolsFor } from './failure-scripts.js'
import { fileScripts } from './failure-scripts-files.js'
import { pushScripts } from './failure-scripts-push.js'
import { scheduleScripts } from './failure-scripts-schedules.js'

// The failures the OpenAPI document lists for the push host and the Schedule API are ones the
// routes really answer: for each operation, requests that make it answer each of its documented
// failures (status, code and message), in the order its docs list them. A failure documented but
// never answered, or answered but not documented, fails here. The failures every route of a
// surface shares (credentials, rate window, body) are its dialect's, tested with the dialect.

const scripts: Record<string, Script> = { ...pushScripts, ...fileScripts, ...scheduleScripts }

async function documentedOperation(method: string, path: string): Promise<RouteDocs | undefined> {
  const { app } = await createTestApp()
  const doc = (await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json()
  return doc.paths[path]?.[method.toLowerCase()]
}

describe('documented failures are answered', () => {
  it.each(Object.entries(scripts))('%s', async (operation, { docs, run }) => {
    const [method = '', path = ''] = operation.split(' ')
    // The script is for an operation the document has, with these docs.
    expect((await documentedOperation(method, path))?.summary).toBe(docs.summary)
    const { app, clock } = await createTestApp()
    const answered = await run(toolsFor(app, clock))
    expect(answered).toEqual((docs.errors ?? []).map(described))
  })
})

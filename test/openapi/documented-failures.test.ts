import { describe, expect, it } from 'vitest'
import { createTestApp } from '../helpers.js'
import { described, type Script, toolsFor } from './failure-scripts.js'
import { fileScripts } from './failure-scripts-files.js'
import { pushScripts } from './failure-scripts-push.js'
import { resourceScripts } from './failure-scripts-resources.js'
import { scheduleScripts } from './failure-scripts-schedules.js'

// The failures the OpenAPI document lists for the push host and the Schedule API are ones the
// routes really answer: for each operation, requests that make it answer each of its own
// failures (status, code and message), in the order the document lists them (`x-failure-order`,
// derived from what the route reads and checks). A failure documented but never answered, or
// answered but not documented, fails here. The failures every route of a surface shares
// (credentials, rate window, body) are its dialect's, tested with the dialect.

const scripts: Record<string, Script> = {
  ...pushScripts,
  ...fileScripts,
  ...scheduleScripts,
  ...resourceScripts,
}

type Failure = { status: number; code: number; message: string }

async function documentedFailures(method: string, path: string): Promise<Failure[] | undefined> {
  const { app } = await createTestApp()
  const doc = (await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json()
  const operation = doc.paths[path]?.[method.toLowerCase()]
  return operation && (operation['x-failure-order'] ?? [])
}

describe('documented failures are answered', () => {
  it.each(Object.entries(scripts))('%s', async (operation, { run }) => {
    const [method = '', path = ''] = operation.split(' ')
    const documented = await documentedFailures(method, path)
    expect(documented, `${operation} is an operation of the document`).toBeDefined()
    const { app, clock } = await createTestApp()
    const answered = await run(toolsFor(app, clock))
    expect(answered).toEqual(documented?.map(described))
  })
})

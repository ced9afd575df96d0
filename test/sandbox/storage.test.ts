import { setImmediate as turn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { storageCounter } from '../../src/across/app/view.js'
import type { SandboxApp } from '../../src/app.js'
import { createAppResets } from '../../src/app-resets.js'
import { testConfig } from '../../src/config.js'
import { sandboxErrors } from '../../src/control/errors.js'
import { createAppGate } from '../../src/http/app-gate.js'
import { COUNT_PAGE } from '../../src/store/apps/app-rows.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'

// GET /_sandbox/app/storage on a big app (issue 32): its rows are counted a page at a time with a
// turn of the event loop between pages (src/across/app/view.ts), so another app's request is
// answered before the count ends, and the count is still what SELECT count(*) says. What happens
// to the app meanwhile (reset, removal) gives the counts of the app after it, or a clear refusal.

const DEVICES = 50_000
const operator = { authorization: basic('operator', 'operator') }

/** An app of `DEVICES` devices (two tags each), written through the store in one transaction. */
async function bigApp(app: SandboxApp) {
  const appKey = newKey('big')
  const auth = { authorization: basic(appKey, newKey('s')) }
  expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).status).toBe(200)
  await app.store.write(() => {
    for (let i = 0; i < DEVICES; i++)
      app.store.pushDevices.insert(
        {
          appKey,
          registrationId: `1b${i.toString(16).padStart(17, '0')}`,
          platform: i % 2 === 0 ? 'android' : 'ios',
          alias: `u${i}`,
          mobile: null,
          online: true,
          lastOnlineAt: 0,
          // Ties in every index that orders by time: the count's pages must not lose or repeat them.
          createdAt: 0,
        },
        ['all', `t${i % 7}`],
      )
  })
  return { appKey, auth }
}

/** The app's rows in each of its tables, as SELECT count(*) says, once the journal is written. */
async function selectCounts(app: SandboxApp, appKey: string): Promise<Record<string, number>> {
  await app.store.requests.settled()
  return Object.fromEntries(
    app.store.appRows.tables.map(t => [
      t,
      app.store.db
        .prepare<[string], number>(`SELECT count(*) FROM "${t}" WHERE app_key = ?`)
        .pluck()
        .get(appKey) ?? 0,
    ]),
  )
}

/** Starts a request and notes when it is answered, and how many turns of the event loop it took. */
function started(request: Promise<Awaited<ReturnType<typeof call>>>, order: string[], name: string) {
  let turns = 0
  let done = false
  const ticking = (async () => {
    while (!done) {
      await turn()
      turns++
    }
  })()
  return request.then(async res => {
    done = true
    order.push(name)
    await ticking
    return { ...res, turns }
  })
}

describe('GET /_sandbox/app/storage on a big app', () => {
  it("lets another app's request in before the count ends, and counts what SELECT count(*) says", async () => {
    const { app } = await createTestApp()
    const { appKey, auth } = await bigApp(app)
    const expected = await selectCounts(app, appKey)
    expect(expected.push_devices).toBe(DEVICES + 4) // the fixtures' four
    expect(expected.push_device_tags).toBeGreaterThanOrEqual(2 * DEVICES)

    const order: string[] = []
    const storage = started(call(app, 'GET', '/_sandbox/app/storage', undefined, auth), order, 'storage')
    const other = started(
      call(app, 'GET', '/_sandbox/app', undefined, { authorization: basic(newKey('o'), newKey('s')) }),
      order,
      'other',
    )
    const [counted, answered] = await Promise.all([storage, other])
    expect(answered.status).toBe(200)
    expect(order).toEqual(['other', 'storage'])
    expect(counted.status).toBe(200)
    expect(counted.body.rows).toEqual(expected)
    // One page of COUNT_PAGE index entries per turn at most: the count took at least that many turns.
    const entries = Object.values(expected).reduce((a, b) => a + b, 0)
    expect(counted.turns).toBeGreaterThanOrEqual(Math.floor(entries / (2 * COUNT_PAGE)))
  })

  it('answers the rows of the app after a reset that ran while it counted, never a mix', async () => {
    const { app } = await createTestApp()
    const { appKey, auth } = await bigApp(app)
    const order: string[] = []
    const storage = started(call(app, 'GET', '/_sandbox/app/storage', undefined, auth), order, 'storage')
    const reset = started(call(app, 'POST', '/_sandbox/reset', undefined, auth), order, 'reset')
    const [counted, done] = await Promise.all([storage, reset])
    expect(done.status).toBe(200)
    expect(order).toEqual(['reset', 'storage'])
    expect(counted.status).toBe(200)
    const after = await selectCounts(app, appKey)
    expect(after.push_devices).toBe(4)
    // The reset's own journal entry is written after the count answered.
    expect({ ...counted.body.rows, requests: 0 }).toEqual({ ...after, requests: 0 })
  })

  it('is refused as for any request once the app is removed while it counted: 401 90002', async () => {
    const { app } = await createTestApp()
    const { auth } = await bigApp(app)
    const order: string[] = []
    const storage = started(call(app, 'GET', '/_sandbox/app/storage', undefined, auth), order, 'storage')
    const removal = started(call(app, 'DELETE', '/_sandbox/app', undefined, auth), order, 'removal')
    const [counted, removed] = await Promise.all([storage, removal])
    expect(removed.body).toMatchObject({ deleted: true, recreated: false })
    expect(order).toEqual(['removal', 'storage'])
    expect(counted.status).toBe(401)
    expect(counted.body.error.code).toBe(90002)
  })

  it("is 404 90048 for the operator counting an app removed meanwhile, and counts any app's rows", async () => {
    const { app } = await createTestApp()
    const { appKey, auth } = await bigApp(app)
    const as = { ...operator, 'x-sandbox-app': appKey }
    const expected = await selectCounts(app, appKey)
    const whole = await call(app, 'GET', '/_sandbox/app/storage', undefined, as)
    expect(whole.status).toBe(200)
    expect(whole.body.rows).toEqual(expected)

    const order: string[] = []
    const storage = started(call(app, 'GET', '/_sandbox/app/storage', undefined, as), order, 'storage')
    const removal = started(call(app, 'DELETE', '/_sandbox/app', undefined, auth), order, 'removal')
    const [counted] = await Promise.all([storage, removal])
    expect(order).toEqual(['removal', 'storage'])
    expect(counted.status).toBe(404)
    expect(counted.body.error).toEqual({
      code: 90048,
      message: `no app with appKey ${appKey} (X-Sandbox-App)`,
    })
  })

  it('waits for an import that replaces the app meanwhile, then counts the app as the import left it', async () => {
    // The import's steps are the gate closing, rows written between other requests, the gate opening
    // (across/app/import.ts); here the gate of the count is closed by the test and rows change while
    // it is, as an import's chunks would.
    const { app } = await createTestApp()
    const { appKey } = await bigApp(app)
    const appGate = createAppGate()
    const describeStorage = storageCounter({
      store: app.store,
      config: testConfig(),
      appResets: createAppResets(),
      appGate,
    })
    const open = appGate.close(appKey)
    let answered = false
    const counting = describeStorage(appKey, () => sandboxErrors.authFailed()).then(answer => {
      answered = true
      return answer
    })
    // Ten turns: a count that did not wait would be in the devices' sessions or tags by now (a step
    // each ~4 096 entries), which lose half their rows.
    for (let i = 0; i < 10; i++) await turn()
    await app.store.write(() => {
      app.store.db.prepare("DELETE FROM push_device_tags WHERE app_key = ? AND tag = 'all'").run(appKey)
      app.store.db.prepare('DELETE FROM push_device_sessions WHERE app_key = ? AND rowid % 2 = 0').run(appKey)
    })
    expect(answered).toBe(false)
    open()
    const { rows } = await counting
    const after = await selectCounts(app, appKey)
    expect(after.push_device_tags).toBeLessThan(DEVICES + 8)
    expect(after.push_device_sessions).toBeLessThan(DEVICES / 2 + 4)
    expect({ ...rows, requests: 0 }).toEqual({ ...after, requests: 0 })
  })
})

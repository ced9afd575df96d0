import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { useEverything } from './use-everything.js'

// Issue 33, point 6: no secret in an artifact or a stream. An auto-provisioned app's devSecret is
// its masterSecret reversed; app.changed and app.reset carried it, so every export and every event
// stream did. Every output kind is read here for the secrets of the apps involved: the export
// document, the event list and stream (`after=`), a `wait=` list, the request journal, and what the
// operator sees of the apps.

const operator = { authorization: basic('boss', 'bosspassword') }
const reversed = (s: string) => [...s].reverse().join('')

describe('the secrets of the apps involved', () => {
  it('are in no export, event, wait= answer, journal entry or operator list', async () => {
    const { app } = await createTestApp({ operator: { user: 'boss', password: 'bosspassword' } })
    const appKey = newKey('x')
    const secret = newKey('s')
    const auth = { authorization: basic(appKey, secret) }
    const other = { appKey: newKey('o'), secret: newKey('p') }
    await useEverything(app, auth)
    await call(app, 'POST', '/_sandbox/reset', undefined, auth)
    // Its answer is the app with its developer's secret: the journal keeps it redacted.
    await call(app, 'PATCH', '/_sandbox/app', { balances: { market: 3 } }, auth)
    await call(
      app,
      'PUT',
      '/_sandbox/push/group',
      { group_key: 'grp1', master_secret: 'groupsecret000001' },
      auth,
    )
    await call(app, 'GET', '/_sandbox/app', undefined, auth)
    await call(app, 'GET', '/v1/accounts/app', undefined, {
      authorization: basic(other.appKey, other.secret),
    })
    // An app event stored before issue 33, with the developer's secret in it.
    app.store.db
      .prepare(`INSERT INTO events (app_key, seq, type, at, data) VALUES (?, 999999, 'app.changed', 1, ?)`)
      .run(
        appKey,
        JSON.stringify({ app_key: appKey, developer: { dev_key: 'k', dev_secret: reversed(secret) } }),
      )
    const secrets = [secret, reversed(secret), other.secret, reversed(other.secret), 'groupsecret000001']
    const outputs: Record<string, string> = {
      export: (await call(app, 'GET', '/_sandbox/app/export', undefined, auth)).raw,
      events: (await call(app, 'GET', '/_sandbox/events?limit=1000', undefined, auth)).raw,
      'events after=0': (await call(app, 'GET', '/_sandbox/events?after=0&limit=1000', undefined, auth)).raw,
      'wait=': (await call(app, 'GET', '/_sandbox/events?after=0&kind=app.changed&wait=100', undefined, auth))
        .raw,
      journal: (await call(app, 'GET', '/_sandbox/requests?limit=1000', undefined, auth)).raw,
      'operator apps': (await call(app, 'GET', '/_sandbox/apps?limit=1000', undefined, operator)).raw,
      'operator events': (
        await call(app, 'GET', '/_sandbox/events?limit=1000', undefined, {
          ...operator,
          'x-sandbox-app': appKey,
        })
      ).raw,
      'operator journal': (
        await call(app, 'GET', '/_sandbox/requests?limit=1000', undefined, {
          ...operator,
          'x-sandbox-app': appKey,
        })
      ).raw,
    }
    // What was read is what the test means: the app's events and journal are there.
    expect(outputs.events).toContain('"app.reset"')
    expect(outputs.events).toContain('"app.changed"')
    expect(outputs.journal).toContain('"PATCH"')
    expect(outputs['operator apps']).toContain(appKey)
    expect(outputs['operator events']).toContain('"app.reset"')
    for (const [kind, text] of Object.entries(outputs))
      for (const s of secrets) expect(text.includes(s), `${kind} holds a secret (${s})`).toBe(false)
  })
})

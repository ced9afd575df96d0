import { describe, expect, it } from 'vitest'
import { APP_KEY, basic, call, createTestApp, newKey } from '../helpers.js'

// A header that authenticated an app is taken again without decoding it (known-credentials.ts),
// but only against the app row it was checked with, and never around the app's standing.

describe('an Authorization header that authenticated before', () => {
  it('is refused once its app was removed and made again with another secret', async () => {
    const { app } = await createTestApp()
    const appKey = newKey('kc')
    const old = { authorization: basic(appKey, newKey('old')) }
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, old)).status).toBe(200)
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, old)).status).toBe(200)
    expect((await call(app, 'DELETE', '/_sandbox/app', undefined, old)).status).toBe(200)
    const fresh = { authorization: basic(appKey, newKey('new')) }
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, fresh)).status).toBe(200)
    const refused = await call(app, 'GET', '/v1/accounts/app', undefined, old)
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe(50002)
  })

  it('still meets the app’s standing: a developer frozen since is refused', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
    const devKey = app.store.apps.get(APP_KEY)!.devKey
    const dev = app.store.apps.developer(devKey)!
    const row = app.store.apps.get(APP_KEY)
    // The developer's row alone changes: the app's cached row is the one the header was checked with.
    await app.store.write(() => app.store.apps.saveDeveloper({ ...dev, frozen: true }))
    expect(app.store.apps.get(APP_KEY)).toBe(row)
    const refused = await call(app, 'GET', '/v1/accounts/app')
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe(50301)
  })

  it('counts in the /v3 rate window like any other authenticated call', async () => {
    const { app } = await createTestApp()
    const first = await call(app, 'GET', '/v3/devices/nosuchdevice0000000')
    const second = await call(app, 'GET', '/v3/devices/nosuchdevice0000000')
    const remaining = (r: typeof first) => Number(r.headers['x-rate-limit-remaining'])
    expect(remaining(second)).toBe(remaining(first) - 1)
  })
})

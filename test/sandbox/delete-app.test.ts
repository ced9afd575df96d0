import { describe, expect, it } from 'vitest'
import { provisionApp } from '../../src/seed/provision.js'
import { basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { key, seedFile } from '../sms/support.js'

// DELETE /_sandbox/app: the app and everything it made are gone; the next request with
// well-formed credentials provisions it afresh. Apps with a definition (the default app, the seed
// file's) come back from it at once.

const reversed = (s: string) => [...s].reverse().join('')
const notification = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'D1', days: '1' } }

describe('DELETE /_sandbox/app', () => {
  it('removes an auto-provisioned app and its own developer; its appKey is free for a new secret', async () => {
    const { app } = await createTestApp()
    const appKey = newKey('d')
    const typo = newKey('typo')
    const auth = { authorization: basic(appKey, typo) }
    const sent = await call(app, 'POST', '/v1/messages', notification, auth)
    const dev = { authorization: basic(reversed(appKey), reversed(typo)) }
    expect((await call(app, 'GET', '/v1/accounts/dev', undefined, dev)).status).toBe(200)

    const res = await call(app, 'DELETE', '/_sandbox/app', undefined, auth)
    expect(res.body).toEqual({ app_key: appKey, deleted: true, recreated: false })
    for (const table of app.store.appRows.tables) {
      const n = app.store.db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE app_key = ?`).get(appKey)
      expect(n, table).toEqual({ n: 0 })
    }
    expect((await call(app, 'GET', '/v1/accounts/dev', undefined, dev)).status).toBe(401)

    // The right secret now owns the appKey: a new app, without the old one's messages.
    const right = { authorization: basic(appKey, newKey('right')) }
    expect((await call(app, 'GET', '/_sandbox/sms/messages', undefined, right)).body.messages).toEqual([])
    expect(
      (await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${sent.body.msg_id}`, undefined, auth)).status,
    ).toBe(401)
  })

  it('counts the app out of AUTO_PROVISION_MAX_APPS', async () => {
    // The default app plus one: full.
    const { app } = await createTestApp({ autoProvisionMaxApps: 2 })
    const first = { authorization: basic(newKey('m'), newKey('s')) }
    const second = { authorization: basic(newKey('m'), newKey('s')) }
    expect((await call(app, 'GET', '/_sandbox/app', undefined, first)).status).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, second)).status).toBe(401)
    await call(app, 'DELETE', '/_sandbox/app', undefined, first)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, second)).status).toBe(200)
  })

  it('makes the default app again at once', async () => {
    const { app } = await createTestApp()
    const fresh = (await call(app, 'GET', '/_sandbox/app')).body
    await call(app, 'POST', '/v1/messages', notification)
    await call(app, 'PATCH', '/_sandbox/app', { blacklisted: true })
    expect((await call(app, 'DELETE', '/_sandbox/app')).body).toMatchObject({
      deleted: true,
      recreated: true,
    })
    expect((await call(app, 'GET', '/_sandbox/app', undefined, { authorization: defaultAuth })).body).toEqual(
      fresh,
    )
    expect((await call(app, 'GET', '/_sandbox/sms/messages')).body.messages).toEqual([])
  })

  it('makes a seed file app again from the file, with the same credentials', async () => {
    const { app } = await createTestApp({ seedFile: seedFile() })
    const auth = { authorization: basic(key('five'), key('fivesecret')) }
    const fresh = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body
    expect(fresh.balances).toEqual({ balance: 5, voice: null, industry: null, market: null })
    await call(app, 'POST', '/v1/messages', notification, auth)
    const res = await call(app, 'DELETE', '/_sandbox/app', undefined, auth)
    expect(res.body).toEqual({ app_key: key('five'), deleted: true, recreated: true })
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body).toEqual(fresh)
  })

  it('keeps the shared developer of an app from before developers were its own', async () => {
    const { app, clock } = await createTestApp()
    const appKey = newKey('old')
    const secret = newKey('s')
    provisionApp(app.store, { appKey, masterSecret: secret }, clock.now()) // the default developer
    const auth = { authorization: basic(appKey, secret) }
    expect((await call(app, 'DELETE', '/_sandbox/app', undefined, auth)).body.recreated).toBe(false)
    expect(app.store.apps.get(appKey)).toBeUndefined()
    // The default app still has its developer.
    expect((await call(app, 'GET', '/_sandbox/app')).body.developer.dev_key).toBe('sandboxdevkey00000000001')
  })
})

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp } from '../helpers.js'
import { ANDROID_1 } from './helpers.js'

// issue 29, point 3: the registration_ids at fault travel inside `error` as `illegal_rids`, where
// cavlabs/jiguang-sdk-go reads them: api/jpush/device/v3_set_tag.go:97 (TagSetError),
// v3_delete_aliases.go:94 (AliasesDeleteError), push/v3_batch_send.go:188 (BatchSendError, per
// entry), gpush/v3_send.go:171 (SendError, per member); jpush-api.md §4 "illegal_rids".

const UNKNOWN = '1a00000000000000bad'

describe('illegal_rids', () => {
  it('7013 on tags and aliases names every unknown rid', async () => {
    const { app } = await createTestApp()
    const tag = await call(app, 'POST', '/v3/tags/tag1', {
      registration_ids: { add: [ANDROID_1, '0000aaaa'], remove: ['0000bbbb'] },
    })
    expect(tag.status).toBe(400)
    expect(tag.body).toEqual({
      error: {
        code: 7013,
        message: 'Some registration_ids are invalid: 0000aaaa,0000bbbb',
        illegal_rids: ['0000aaaa', '0000bbbb'],
      },
    })
    const alias = await call(app, 'POST', '/v3/aliases/alias1', {
      registration_ids: { remove: ['0000aaaa'] },
    })
    expect(alias.status).toBe(400)
    expect(alias.body.error).toEqual({
      code: 7013,
      message: 'Some registration_ids are invalid: 0000aaaa',
      illegal_rids: ['0000aaaa'],
    })
  })

  it('the per-entry 1003 of a batch push names its rid', async () => {
    const { app } = await createTestApp()
    const [cid] = (await call(app, 'GET', '/v3/push/cid?count=1')).body.cidlist
    const res = await call(app, 'POST', '/v3/push/batch/regid/single', {
      pushlist: { [cid]: { platform: 'all', target: UNKNOWN, notification: { alert: 'hi' } } },
    })
    expect(res.status).toBe(200)
    expect(res.body[cid]).toEqual({
      error: { code: 1003, message: `The registration_id ${UNKNOWN} is invalid!`, illegal_rids: [UNKNOWN] },
    })
  })

  it('the per-member 1003 of a group push names the rids the member does not have', async () => {
    const group = { group_key: 'groupkey0000000000000001', master_secret: 'groupsecret0000000000001' }
    const appKey = 'groupappa000000000000001'
    const file = join(mkdtempSync(join(tmpdir(), 'illegal-')), 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({
        apps: [{ app_key: appKey, master_secret: 'groupappasecret000000001', settings: { group } }],
      }),
    )
    const { app } = await createTestApp({ seedFile: file })
    const res = await call(
      app,
      'POST',
      '/v3/grouppush',
      { platform: 'all', audience: { registration_id: [ANDROID_1, UNKNOWN] }, notification: { alert: 'hi' } },
      { authorization: basic(`group-${group.group_key}`, group.master_secret) },
    )
    expect(res.status).toBe(200)
    expect(res.body[appKey]).toEqual({
      error: { code: 1003, message: `The registration_id ${UNKNOWN} is invalid!`, illegal_rids: [UNKNOWN] },
    })
  })
})

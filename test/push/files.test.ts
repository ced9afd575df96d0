import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { APP_KEY, basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { curlForm, javaForm, type RawForm } from './file-forms.js'
import { ANDROID_1, ANDROID_2, IOS_1, IOS_2, pushBody, rate, received } from './helpers.js'

// File push (jpush-api.md §5.14): POST /v3/files/{alias|registration_id}, GET /v3/files,
// GET and DELETE /v3/files/{file_id}, POST /v3/push/file.

async function upload(app: SandboxApp, type: string, form: RawForm, authorization = defaultAuth) {
  const res = await app.inject({
    method: 'POST',
    url: `/v3/files/${type}`,
    headers: { authorization, 'content-type': form.contentType },
    payload: form.body,
  })
  return { status: res.statusCode, body: res.json(), headers: res.headers }
}

const filePush = (fileId: unknown, extra: Record<string, unknown> = {}) =>
  pushBody({ audience: { file: { file_id: fileId } }, ...extra })

describe('files', () => {
  it('uploads a list of aliases, lists it, reads it, pushes to it, deletes it', async () => {
    const { app } = await createTestApp()
    const up = await upload(app, 'alias', curlForm('alias1\n  alias2  \r\n\nalias1\nnobody\n'))
    expect(up.status).toBe(200)
    expect(up.body).toEqual({ file_id: expect.stringMatching(new RegExp(`^${APP_KEY}-[0-9a-f-]{36}$`)) })
    expect(rate(up.headers)).toEqual(['600', '599', '60'])
    const fileId = up.body.file_id as string
    const info = { file_id: fileId, type: 'alias', file_name: 'ids.txt', create_time: '2026-01-01 08:00:00' }
    expect((await call(app, 'GET', '/v3/files')).body).toEqual({ total_count: 1, files: [info] })
    expect((await call(app, 'GET', `/v3/files/${fileId}`)).body).toEqual(info)

    const pushed = await call(app, 'POST', '/v3/push/file', filePush(fileId, { options: { sendno: 9 } }))
    expect(pushed.body).toEqual({ sendno: '9', msg_id: expect.stringMatching(/^\d{17}$/) })
    const got = await received(app, `msg_id=${pushed.body.msg_id}`)
    expect(got.map(m => m.registration_id).sort()).toEqual([ANDROID_1, ANDROID_2, IOS_1].sort())

    expect((await call(app, 'DELETE', `/v3/files/${fileId}`)).body).toEqual({})
    expect((await call(app, 'GET', '/v3/files')).body).toEqual({ total_count: 0, files: [] })
    const gone = await call(app, 'GET', `/v3/files/${fileId}`)
    expect([gone.status, gone.body.error.code]).toEqual([400, 1003])
    // Deleting what is not there is a success (cav: "fileID 不存在当成功处理").
    expect((await call(app, 'DELETE', `/v3/files/${fileId}`)).status).toBe(200)
    const after = await call(app, 'POST', '/v3/push/file', filePush(fileId))
    expect([after.status, after.body]).toEqual([
      400,
      { error: { code: 1003, message: `file_id ${fileId} does not exist` } },
    ])
  })

  it("registration_id files: the app's devices; ids since gone are skipped; none left is 1011", async () => {
    const { app } = await createTestApp()
    const up = await upload(app, 'registration_id', javaForm(`${IOS_2}\n1a0000000000000gone\n`, '24'))
    expect(up.status).toBe(200)
    const fileId = up.body.file_id as string
    // expire_time only for an upload that gave a ttl; Beijing time.
    expect((await call(app, 'GET', `/v3/files/${fileId}`)).body).toEqual({
      file_id: fileId,
      type: 'registration_id',
      file_name: 'ids.txt',
      create_time: '2026-01-01 08:00:00',
      expire_time: '2026-01-02 08:00:00',
    })
    const pushed = await call(app, 'POST', '/v3/push/file', filePush(fileId))
    expect((await received(app, `msg_id=${pushed.body.msg_id}`)).map(m => m.registration_id)).toEqual([IOS_2])
    const gone = await upload(app, 'registration_id', curlForm('1a0000000000000gone'))
    const none = await call(app, 'POST', '/v3/push/file', filePush(gone.body.file_id))
    expect([none.status, none.body.error.code, typeof none.body.msg_id]).toEqual([400, 1011, 'string'])
  })

  it('a file is kept for its ttl (hours, default 720) on the app clock', async () => {
    const { app } = await createTestApp()
    const short = (await upload(app, 'alias', curlForm('alias1', { ttl: '1' }))).body.file_id
    const long = (await upload(app, 'alias', curlForm('alias1'))).body.file_id
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 3600_000 })
    const list = (await call(app, 'GET', '/v3/files')).body
    expect(list.files.map((f: { file_id: string }) => f.file_id)).toEqual([long])
    expect((await call(app, 'POST', '/v3/push/file', filePush(short))).body.error.code).toBe(1003)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 719 * 3600_000 })
    expect((await call(app, 'GET', '/v3/files')).body.total_count).toBe(0)
  })

  it('upload errors: 1002 no file, 1003 not a form / bad line / empty / bad ttl, 1005 over 10 MiB', async () => {
    const { app } = await createTestApp()
    const cases: Array<[string, RawForm, number, string]> = [
      ['alias', curlForm('alias1', { field: 'file' }), 1002, 'Missing parameter: filename'],
      ['alias', curlForm('alias1\nnot valid!\n'), 1003, 'line 2 of the file is not a valid alias'],
      [
        'registration_id',
        curlForm('1a00189-70a8b0fd6c0e'),
        1003,
        'line 1 of the file is not a valid registration_id',
      ],
      ['alias', curlForm('\n  \n'), 1003, 'the file holds no alias'],
      ['alias', curlForm('alias1', { ttl: '721' }), 1003, 'ttl is invalid'],
      ['alias', curlForm('alias1', { ttl: 'x' }), 1003, 'ttl is invalid'],
      [
        'alias',
        { contentType: 'application/json', body: Buffer.from('{"filename":"x"}') },
        1003,
        'the file must be sent as multipart/form-data',
      ],
      [
        'alias',
        { contentType: 'multipart/form-data', body: Buffer.from('x') },
        1003,
        'the form cannot be read: no boundary',
      ],
    ]
    for (const [type, form, code, message] of cases) {
      const res = await upload(app, type, form)
      expect([res.status, res.body], message).toEqual([400, { error: { code, message } }])
    }
    const empty = await app.inject({
      method: 'POST',
      url: '/v3/files/alias',
      headers: { authorization: defaultAuth },
    })
    expect(empty.json()).toEqual({ error: { code: 1002, message: 'Missing parameter: filename' } })
    const many = Array.from({ length: 100_001 }, (_, i) => `a${i}`).join('\n')
    expect((await upload(app, 'alias', curlForm(many))).body).toEqual({
      error: { code: 1003, message: 'the file holds more than 100000 values' },
    })
    const big = await upload(app, 'alias', curlForm(`${'a'.repeat(40)}\n`.repeat(260_000)))
    expect([big.status, big.body.error.code]).toEqual([400, 1005])
    // A form cut off inside the file part is refused, never a crash.
    const cut = curlForm('alias1')
    const res = await upload(app, 'alias', { ...cut, body: cut.body.subarray(0, cut.body.length - 30) })
    expect([res.status, res.body.error.code]).toEqual([400, 1003])
    expect((await call(app, 'GET', '/v3/files')).body.total_count).toBe(0)
  })

  it('at most 20 files at once (1012); deleting one makes room', async () => {
    const { app } = await createTestApp()
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await upload(app, 'alias', curlForm(`alias${i}`))).body.file_id)
    const over = await upload(app, 'alias', curlForm('alias1'))
    expect([over.status, over.body.error.code]).toEqual([400, 1012])
    await call(app, 'DELETE', `/v3/files/${ids[0]}`)
    expect((await upload(app, 'alias', curlForm('alias1'))).status).toBe(200)
  })

  it('file push refuses another audience, a missing file_id, and reads the body like /v3/push', async () => {
    const { app } = await createTestApp()
    const cases: Array<[unknown, number, string]> = [
      [pushBody(), 1003, 'audience must be {"file":{"file_id":"…"}} on /v3/push/file'],
      [pushBody({ audience: 'all' }), 1003, 'audience must be {"file":{"file_id":"…"}} on /v3/push/file'],
      [pushBody({ audience: { file: {} } }), 1002, 'Missing parameter: audience.file.file_id'],
      [pushBody({ audience: { file: { file_id: 7 } } }), 1003, 'audience.file.file_id is invalid'],
      [
        { audience: { file: { file_id: 'x' } }, notification: { alert: 'x' } },
        1002,
        'Missing parameter: platform',
      ],
    ]
    for (const [body, code, message] of cases) {
      const res = await call(app, 'POST', '/v3/push/file', body)
      expect([res.status, res.body], message).toEqual([400, { error: { code, message } }])
    }
    // And /v3/push does not take a file audience.
    const plain = await call(app, 'POST', '/v3/push', filePush('x'))
    expect(plain.body.error.code).toBe(1003)
  })

  it("another app's file_id is unknown to every call; methods and credentials", async () => {
    const { app } = await createTestApp()
    const fileId = (await upload(app, 'alias', curlForm('alias1'))).body.file_id
    const other = { authorization: basic(newKey('o'), newKey('s')) }
    expect((await call(app, 'GET', `/v3/files/${fileId}`, undefined, other)).body.error.code).toBe(1003)
    expect((await call(app, 'GET', '/v3/files', undefined, other)).body).toEqual({
      total_count: 0,
      files: [],
    })
    expect((await call(app, 'POST', '/v3/push/file', filePush(fileId), other)).body.error.code).toBe(1003)
    expect((await call(app, 'DELETE', `/v3/files/${fileId}`, undefined, other)).status).toBe(200)
    expect((await call(app, 'GET', `/v3/files/${fileId}`)).status).toBe(200) // still there for its owner
    const put = await call(app, 'PUT', `/v3/files/${fileId}`, {})
    expect([put.status, put.body.error.code]).toEqual([405, 1001])
    const wrong = await upload(app, 'alias', curlForm('alias1'), basic(APP_KEY, newKey()))
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 1004])
    // The java client lists with a trailing slash.
    expect((await call(app, 'GET', '/v3/files/')).body.total_count).toBe(1)
  })
})

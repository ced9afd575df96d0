import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { ownDeveloperOf } from '../../src/seed/provision.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { curlForm, javaForm } from './file-forms.js'
import { ANDROID_1, IOS_1 } from './helpers.js'

// The file API with the developer's devKey:devSecret (issue 29 point 8). rest_api_v3_file: "2020.08.11
// 日开始，新增支持 base64(dev_key:dev_secret) 鉴权 … 只有开启权限的开发者，才能通过 dev_key 调用 fileapi
// 的各个接口，否则返回 1105 错误码" (dev_key and dev_secret: the account's DevKey and API DevSecret);
// cav gpush/v3_send_by_file.go: "调用文件上传接口获取 fileID 时，需要使用 devKey 和 devSecret 进行验证"
// for POST /v3/grouppush/file. The sandbox grants VIP file group push to a developer with an app
// in a group (docs/fidelity.md).

const appOf = () => {
  const appKey = newKey('a')
  const secret = newKey('m')
  const dev = ownDeveloperOf(appKey, secret)
  return { auth: basic(appKey, secret), appKey, dev: basic(dev.devKey, dev.devSecret), devKey: dev.devKey }
}

async function upload(app: SandboxApp, type: string, authorization: string, form = curlForm('alias1\n')) {
  const res = await app.inject({
    method: 'POST',
    url: `/v3/files/${type}`,
    headers: { authorization, 'content-type': form.contentType },
    payload: form.body,
  })
  return { status: res.statusCode, body: res.json() }
}

async function grouped(app: SandboxApp) {
  const group = { group_key: newKey('g'), master_secret: newKey('s') }
  const a = appOf()
  const b = appOf()
  for (const m of [a, b]) {
    const joined = await call(app, 'PUT', '/_sandbox/push/group', group, { authorization: m.auth })
    expect(joined.status).toBe(200)
  }
  return { a, b, groupAuth: basic(`group-${group.group_key}`, group.master_secret) }
}

describe('the file API with devKey:devSecret (file group push)', () => {
  it('a developer with an app in a group uploads, lists, reads and deletes its own files', async () => {
    const { app } = await createTestApp()
    const { a } = await grouped(app)
    const up = await upload(app, 'alias', a.dev, javaForm('alias1\nalias2\n', '24'))
    expect(up.status).toBe(200)
    expect(up.body).toEqual({ file_id: expect.stringMatching(new RegExp(`^${a.devKey}-[0-9a-f-]{36}$`)) })
    const fileId = up.body.file_id as string
    const info = {
      file_id: fileId,
      type: 'alias',
      file_name: 'ids.txt',
      create_time: expect.any(String),
      expire_time: expect.any(String),
    }
    const listed = await call(app, 'GET', '/v3/files', undefined, { authorization: a.dev })
    expect(listed.body).toEqual({ total_count: 1, files: [info] })
    expect((await call(app, 'GET', `/v3/files/${fileId}`, undefined, { authorization: a.dev })).body).toEqual(
      info,
    )
    // The developer's files are not the app's: its own credentials neither list nor push them.
    expect((await call(app, 'GET', '/v3/files', undefined, { authorization: a.auth })).body).toEqual({
      total_count: 0,
      files: [],
    })
    const ownPush = await call(
      app,
      'POST',
      '/v3/push/file',
      { platform: 'all', audience: { file: { file_id: fileId } }, notification: { alert: 'x' } },
      { authorization: a.auth },
    )
    expect([ownPush.status, ownPush.body.error?.code]).toEqual([400, 1003])

    expect(
      (await call(app, 'DELETE', `/v3/files/${fileId}`, undefined, { authorization: a.dev })).body,
    ).toEqual({})
    const gone = await call(app, 'GET', `/v3/files/${fileId}`, undefined, { authorization: a.dev })
    expect([gone.status, gone.body]).toEqual([
      400,
      { error: { code: 1003, message: `file_id ${fileId} does not exist` } },
    ])
  })

  it('POST /v3/grouppush/file pushes the developer’s file through every member app', async () => {
    const { app } = await createTestApp()
    const { a, b, groupAuth } = await grouped(app)
    const up = await upload(app, 'alias', a.dev, curlForm('alias1\n'))
    const fileId = up.body.file_id as string
    const res = await call(
      app,
      'POST',
      '/v3/grouppush/file',
      { platform: 'all', audience: { file: { file_id: fileId } }, notification: { alert: 'to the group' } },
      { authorization: groupAuth },
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      group_msgid: expect.stringMatching(/^\d{17}$/),
      [a.appKey]: { sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) },
      [b.appKey]: { sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) },
    })
    for (const m of [a, b]) {
      const seen = await call(
        app,
        'GET',
        `/_sandbox/push/messages?msg_id=${res.body[m.appKey].msg_id}`,
        undefined,
        {
          authorization: m.auth,
        },
      )
      expect(seen.body.messages.map((x: { registration_id: string }) => x.registration_id).sort()).toEqual(
        [ANDROID_1, IOS_1].sort(),
      )
    }
  })

  it('1105 for a developer without VIP file group push (no app in a group); 1004 for a wrong devSecret', async () => {
    const { app } = await createTestApp()
    const lone = appOf()
    await call(app, 'GET', '/v3/push/cid', undefined, { authorization: lone.auth }) // provisions it
    const refused = { code: 1105, message: 'The developer has no permission of VIP file group push' }
    const up = await upload(app, 'registration_id', lone.dev, curlForm(`${ANDROID_1}\n`))
    expect([up.status, up.body]).toEqual([403, { error: refused }])
    for (const [method, url] of [
      ['GET', '/v3/files'],
      ['GET', `/v3/files/${lone.devKey}-00000000-0000-0000-0000-000000000000`],
      ['DELETE', `/v3/files/${lone.devKey}-00000000-0000-0000-0000-000000000000`],
    ] as const) {
      const res = await call(app, method, url, undefined, { authorization: lone.dev })
      expect([url, res.status, res.body]).toEqual([url, 403, { error: refused }])
    }
    // The app's own credentials are as before.
    expect((await upload(app, 'alias', lone.auth)).status).toBe(200)

    const { a } = await grouped(app)
    const wrong = await upload(app, 'alias', basic(a.devKey, 'wrongsecret0000000000000'))
    expect([wrong.status, wrong.body]).toEqual([401, { error: { code: 1004, message: 'Authen failed' } }])
    // Once the developer's app joins a group, the same credentials are admitted.
    await call(
      app,
      'PUT',
      '/_sandbox/push/group',
      { group_key: newKey('g'), master_secret: newKey('s') },
      {
        authorization: lone.auth,
      },
    )
    expect((await upload(app, 'alias', lone.dev)).status).toBe(200)
  })
})

import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, defaultAuth } from '../helpers.js'
import { curlForm } from './file-forms.js'
import { ANDROID_1, ANDROID_2, IOS_1 } from './helpers.js'

// Group statistics and group file push (docs/jpush-wire.md "Group statistics"), with the bytes of
// cav's Go SDK (greport/*.go, gpush/v3_send_by_file.go) and the old Java ReportClient
// (getGroupMessagesDetail, getGroupUsers: `?group_msgids=…`, `?time_unit=…&start=…&duration=…`).
// Answers are checked against their result types: cav MessageDetail (group_msgid, jpush,
// android_pns, ios, hmos) and the old Java GroupMessageDetailResult, which skips an item whose
// android_pns is null and reads android_pns of every other (so it is always there).

const GROUP = { group_key: 'statsgroup00000000000001', master_secret: 'statsgroupsecret00000001' }
const A = basic('statsappa000000000000001', 'statsappasecret000000001')
const B = basic('statsappb000000000000001', 'statsappbsecret000000001')
const groupAuth = { authorization: basic(`group-${GROUP.group_key}`, GROUP.master_secret) }

async function group(app: SandboxApp) {
  for (const auth of [A, B]) await call(app, 'PUT', '/_sandbox/push/group', GROUP, { authorization: auth })
}

describe('GET /v3/group/messages/detail', () => {
  it('sums a group push over its member apps', async () => {
    const { app } = await createTestApp()
    await group(app)
    const pushed = await call(
      app,
      'POST',
      '/v3/grouppush',
      { platform: 'all', audience: { alias: ['alias1'] }, notification: { alert: 'both apps' } },
      groupAuth,
    )
    const id = pushed.body.group_msgid
    // A device of app A opens it.
    const msgA = pushed.body.statsappa000000000000001.msg_id
    await call(
      app,
      'POST',
      `/_sandbox/push/messages/${msgA}/clicks`,
      { registration_id: ANDROID_1 },
      { authorization: A },
    )
    const res = await call(
      app,
      'GET',
      `/v3/group/messages/detail?group_msgids=${id},18100000000000099`,
      undefined,
      groupAuth,
    )
    expect(res.status, res.raw).toBe(200)
    // alias1 is one Android and one iOS device in each app.
    expect(res.body).toEqual([
      {
        group_msgid: id,
        jpush: { target: 2, online_push: 2, sent: 2, received: 2, display: 2, click: 1, msg_click: 0 },
        android_pns: { pns_target: 0, pns_sent: 0, pns_received: 0, pns_display: 0 },
        ios: {
          apns_target: 2,
          apns_sent: 2,
          apns_received: 2,
          apns_click: 0,
          apns_display: 2,
          msg_target: 0,
          msg_received: 0,
          msg_click: 0,
          msg_display: 0,
        },
        hmos: {
          hmpns_target: 0,
          hmpns_sent: 0,
          hmpns_received: 0,
          hmpns_click: 0,
          msg_target: 0,
          msg_received: 0,
          msg_click: 0,
        },
      },
      // Unknown: nulls (the old Java client skips it).
      { group_msgid: '18100000000000099', jpush: null, android_pns: null, ios: null, hmos: null },
    ])
  })

  it('refuses more than 10 ids (3002) and anything but the group’s credentials (3001)', async () => {
    const { app } = await createTestApp()
    await group(app)
    const many = Array.from({ length: 11 }, (_, i) => `1810000000000000${i}`).join(',')
    const res = await call(app, 'GET', `/v3/group/messages/detail?group_msgids=${many}`, undefined, groupAuth)
    expect([res.status, res.body]).toEqual([
      400,
      { error: { code: 3002, message: 'group_msgids is invalid' } },
    ])
    const app_ = await call(app, 'GET', '/v3/group/messages/detail?group_msgids=1', undefined, {
      authorization: defaultAuth,
    })
    expect(app_.status).toBe(401)
    const wrong = await call(app, 'GET', '/v3/group/messages/detail?group_msgids=1', undefined, {
      authorization: basic(`group-${GROUP.group_key}`, '000000000000000000000000'),
    })
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 3001])
  })
})

describe('GET /v3/group/users', () => {
  it("sums the member apps' devices; DAY at most 30, MONTH 1", async () => {
    const { app, clock } = await createTestApp()
    await group(app)
    const day = new Date(clock.now()).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10)
    // cav GetUserDetail: time_unit, start (query-escaped), duration.
    const res = await call(
      app,
      'GET',
      `/v3/group/users?time_unit=DAY&start=${day}&duration=1`,
      undefined,
      groupAuth,
    )
    expect(res.body).toEqual({
      time_unit: 'DAY',
      start: day,
      duration: 1,
      // Each app starts with 2 Android and 2 iOS devices, online.
      items: [{ time: day, android: { new: 4, online: 4 }, ios: { new: 4, online: 4 } }],
    })
    const long = await call(
      app,
      'GET',
      `/v3/group/users?time_unit=DAY&start=${day}&duration=31`,
      undefined,
      groupAuth,
    )
    expect(long.body.error.code).toBe(3005)
    const months = await call(
      app,
      'GET',
      `/v3/group/users?time_unit=MONTH&start=${day.slice(0, 7)}&duration=2`,
      undefined,
      groupAuth,
    )
    expect(months.body.error.code).toBe(3005)
  })
})

describe('POST /v3/grouppush/file', () => {
  it("pushes a member's file through every member: aliases to all, registration_ids to their own app", async () => {
    const { app } = await createTestApp()
    await group(app)
    const upload = async (type: string, lines: string) => {
      const f = curlForm(lines)
      const res = await app.inject({
        method: 'POST',
        url: `/v3/files/${type}`,
        headers: { authorization: A, 'content-type': f.contentType },
        payload: f.body,
      })
      return res.json().file_id as string
    }
    const aliases = await upload('alias', 'alias2\n')
    const res = await call(
      app,
      'POST',
      '/v3/grouppush/file',
      { platform: 'all', audience: { file: { file_id: aliases } }, notification: { alert: 'file' } },
      groupAuth,
    )
    expect(res.body).toEqual({
      group_msgid: expect.stringMatching(/^\d{17}$/),
      statsappa000000000000001: { msg_id: expect.stringMatching(/^\d{17}$/), sendno: '0' },
      statsappb000000000000001: { msg_id: expect.stringMatching(/^\d{17}$/), sendno: '0' },
    })
    // Registration_ids: the same ids exist in both apps here (every app has the same four devices).
    const rids = await upload('registration_id', `${ANDROID_2}\n${IOS_1}\n`)
    const both = await call(
      app,
      'POST',
      '/v3/grouppush/file',
      { platform: 'all', audience: { file: { file_id: rids } }, notification: { alert: 'file' } },
      groupAuth,
    )
    expect(Object.keys(both.body).sort()).toEqual([
      'group_msgid',
      'statsappa000000000000001',
      'statsappb000000000000001',
    ])
    const stats = await call(
      app,
      'GET',
      `/v3/group/messages/detail?group_msgids=${both.body.group_msgid}`,
      undefined,
      groupAuth,
    )
    expect(stats.body[0].jpush.target).toBe(2)
    const unknown = await call(
      app,
      'POST',
      '/v3/grouppush/file',
      {
        platform: 'all',
        audience: { file: { file_id: 'statsappa000000000000001-00000000-0000-0000-0000-000000000000' } },
        notification: { alert: 'x' },
      },
      groupAuth,
    )
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 1003])
  })
})

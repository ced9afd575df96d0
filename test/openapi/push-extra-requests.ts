import { basic } from '../helpers.js'

// The /v3 routes issue 14 added (schedules, batch and group push, withdraw, quota, files, file
// push, users, the Beijing paths), answered and refused, for vendor-bytes.test.ts: recorded after
// the routes and before their docs, so documenting them is shown to change no byte. They run after
// the first requests, so those answers (msg_ids, rate windows) stay where they were.

export type Request = [
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  body?: string | Buffer,
  auth?: string | null,
]

const APP_KEY = '7d431e42dfa6a6d693ac2d04'
const RID = '1a0018970a8b0fd6c0e'
const GROUP = { key: 'groupkey0000000000000001', secret: 'groupsecret0000000000001' }
/** Joins the default app to GROUP (PUT /_sandbox/push/group): set up before, not recorded. */
export const groupSetup = { group_key: GROUP.key, master_secret: GROUP.secret }
const groupAuth = basic(`group-${GROUP.key}`, GROUP.secret)

const cid = (n: number) => `${APP_KEY}-00000000-0000-4000-8000-00000000000${n}`
const hi = '"notification":{"alert":"hi"}'
const ids = Buffer.from(
  `--b\r\nContent-Disposition: form-data; name="filename"; filename="ids.txt"\r\n\r\n${RID}\r\n\r\n` +
    '--b\r\nContent-Disposition: form-data; name="ttl"\r\n\r\n24\r\n--b--\r\n',
)
const task = (enabled: boolean, time: string) =>
  `{"name":"nightly","enabled":${enabled},"trigger":{"single":{"time":"${time}"}},` +
  `"push":{"platform":"all","audience":{"tag":["tag2"]},${hi}}}`

export const pushExtraRequests: Request[] = [
  // Batch single push: one entry delivered, one refused alone; a request refused whole.
  [
    'POST',
    '/v3/push/batch/regid/single',
    `{"pushlist":{"${cid(1)}":{"platform":"all","target":"${RID}",${hi}},` +
      `"${cid(2)}":{"platform":"all","target":"nope_x",${hi}}}}`,
  ],
  [
    'POST',
    '/v3/push/batch/alias/single',
    `{"pushlist":{"${cid(3)}":{"platform":"all","target":"alias1",${hi}}}}`,
  ],
  ['POST', '/v3/push/batch/alias/single', '{"pushlist":{}}'],
  // Group push: with the group's credentials, and with wrong ones.
  ['POST', '/v3/grouppush', `{"platform":"all","audience":{"tag":["tag2"]},${hi}}`, groupAuth],
  ['POST', '/v3/grouppush', `{"platform":"all","audience":"all",${hi}}`, basic(`group-${GROUP.key}`, 'x')],
  // Withdraw: the first push of vendor-bytes.test.ts, then an id the app never pushed.
  ['DELETE', '/v3/push/18100000000000001'],
  ['DELETE', '/v3/push/99'],
  ['POST', '/v3/push/template', '{}'],
  ['GET', '/v3/push/quota'],
  // Files and file push.
  ['POST', '/v3/files/registration_id', ids],
  ['POST', '/v3/files/alias', '{}'],
  ['GET', '/v3/files'],
  ['GET', '/v3/files/nope'],
  ['DELETE', '/v3/files/nope'],
  ['POST', '/v3/push/file', `{"platform":"all","audience":{"file":{"file_id":"nope"}},${hi}}`],
  ['POST', '/v3/push/file', `{"platform":"all","audience":{"file":{}},${hi}}`],
  // Users, at the report host's path and the Beijing one.
  ['GET', '/v3/users?time_unit=DAY&start=2025-12-31&duration=2'],
  ['GET', '/v3/users?time_unit=WEEK&start=2025-12-31&duration=2'],
  ['GET', '/v3/report/users?time_unit=DAY&start=2025-12-31&duration=2'],
  // Schedules, at both paths.
  ['POST', '/v3/schedules', task(true, '2026-01-02 09:00:00')],
  ['POST', '/v3/push/schedules', task(false, '2026-01-02 09:00:00')],
  ['GET', '/v3/schedules'],
  ['GET', '/v3/push/schedules?page=0'],
  ['GET', '/v3/schedules/nope'],
  ['GET', '/v3/push/schedules/nope/msg_ids'],
  ['PUT', '/v3/schedules/nope', '{"name":"renamed"}'],
  ['DELETE', '/v3/push/schedules/nope'],
  // Other Beijing paths of the device and report hosts.
  ['GET', `/v3/device/${RID}`],
  ['POST', '/v3/device/status', `{"registration_ids":["${RID}"]}`],
  ['GET', '/v3/device/tags'],
  ['GET', '/v3/device/aliases/alias1'],
  ['GET', '/v3/report/received?msg_ids=18100000000000001'],
  ['GET', '/v3/report/messages/detail?msg_ids=18100000000000001'],
]

import { describe, expect, it } from 'vitest'
import { createTestApp, defaultAuth } from '../helpers.js'
import { groupSetup, pushExtraRequests, type Request } from './push-extra-requests.js'

// Documenting /v1 and /v3 must not change one byte of what they answer (issue 12 §8): their docs
// are read by the OpenAPI document only, never by Fastify's validation or serialization. These
// requests cover every vendor route, answered and refused; their exact answers (status, headers,
// body) were recorded before any route had docs, in vendor-answers.snap.txt (those of the routes
// issue 14 added, push-extra-requests.ts, before theirs). A change here is a change of the wire
// format: look at the diff before updating the snapshot (`vitest -u`).

const DEV = `Basic ${Buffer.from('sandboxdevkey00000000001:sandboxdevsecret00000001').toString('base64')}`
const RID = '1a0018970a8b0fd6c0e'
const PNG = '\x89PNG\r\n\x1a\n\0\0\0\rIHDR'
// A multipart form (boundary `b`) as the bytes the Java client sends; images are binary.
const form = (fields: Record<string, string>) =>
  Buffer.concat([
    ...Object.entries(fields).map(([k, v]) =>
      k.startsWith('image')
        ? Buffer.concat([
            Buffer.from(`--b\r\nContent-Disposition: form-data; name="${k}"; filename="a.png"\r\n\r\n`),
            Buffer.from(v, 'latin1'),
            Buffer.from('\r\n'),
          ])
        : Buffer.from(`--b\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from('--b--\r\n'),
  ])

const requests: Request[] = [
  // JSMS
  ['POST', '/v1/codes', '{"mobile":"13800138000","temp_id":1}'],
  ['POST', '/v1/codes', '{"mobile":"138","temp_id":1}'],
  ['POST', '/v1/codes', '{"mobile":"13800138000"}', null],
  ['POST', '/v1/codes/600000000001/valid', '{"code":"000000x"}'],
  ['POST', '/v1/codes/999/valid', '{"code":"123456"}'],
  ['POST', '/v1/voice_codes', '{"mobile":"13900139000","code":"4821","voice_lang":1,"ttl":120}'],
  ['POST', '/v1/voice_codes', '{"mobile":"13900139000","voice_lang":9}'],
  ['POST', '/v1/messages', '{"mobile":"13800138000","temp_id":2,"temp_para":{"order":"A1","days":"3"}}'],
  ['POST', '/v1/messages', '{"mobile":"13800138000","temp_id":4}'],
  ['POST', '/v1/messages', 'not json'],
  [
    'POST',
    '/v1/messages/batch',
    '{"temp_id":2,"recipients":[{"mobile":"13700137000","temp_para":{"order":"A1","days":"2"}},{"mobile":"1391234"}]}',
  ],
  ['GET', '/v1/accounts/app'],
  ['GET', '/v1/accounts/dev', undefined, DEV],
  ['GET', '/v1/accounts/dev'],
  ['POST', '/v1/templates', '{"template":"您的订单{{order}}已发货。","type":2,"remark":"shipping"}'],
  ['POST', '/v1/templates', '{"template":"","type":2}'],
  ['PUT', '/v1/templates', '{"temp_id":5,"template":"恭喜您获得{{prize}}。","type":3}'],
  ['PUT', '/v1/templates/5', '{"template":"恭喜您获得{{prize}}。","type":3}'],
  ['GET', '/v1/templates/1'],
  ['GET', '/v1/templates/77'],
  ['DELETE', '/v1/templates/10001'],
  ['POST', '/v1/sign', form({ sign: 'Acme优选', type: '1', image0: PNG })],
  ['POST', '/v1/sign/10001', form({ sign: 'Acme商城' })],
  ['GET', '/v1/sign/1'],
  ['GET', '/v1/sign/99'],
  ['DELETE', '/v1/sign/1'],
  [
    'POST',
    '/v1/schedule',
    '{"send_time":"2030-03-01 09:30:00","mobile":"13800138000","temp_id":2,"temp_para":{"order":"A1","days":"3"}}',
  ],
  ['POST', '/v1/schedule', '{"send_time":"2020-03-01 09:30:00","mobile":"13800138000","temp_id":2}'],
  [
    'POST',
    '/v1/schedule/batch',
    '{"send_time":"2030-03-01 09:30:00","temp_id":2,"recipients":[{"mobile":"13800138001","temp_para":{"order":"B1","days":"1"}}]}',
  ],
  ['PUT', '/v1/schedule/nope', '{"send_time":"2030-03-02 10:00:00","mobile":"13800138000","temp_id":2}'],
  ['PUT', '/v1/schedule/batch/nope', '{"send_time":"2030-03-02 10:00:00","temp_id":2,"recipients":[]}'],
  ['GET', '/v1/schedule/nope'],
  ['DELETE', '/v1/schedule/nope'],
  ['GET', '/v1/report'],
  ['GET', '/v1/reply'],
  ['GET', '/v1/report'],
  ['PATCH', '/v1/codes'],
  ['GET', '/v1/nowhere'],
  // JPush
  ['POST', '/v3/push', '{"platform":"all","audience":{"alias":["alias1"]},"notification":{"alert":"hi"}}'],
  ['POST', '/v3/push', '{"platform":"all","audience":{"tag":["nobody"]},"notification":{"alert":"hi"}}'],
  ['POST', '/v3/push', '{"platform":"all","audience":"all"}'],
  ['POST', '/v3/push', '{"platform":"all","audience":"all","notification":{"alert":"hi"}}', null],
  [
    'POST',
    '/v3/push/validate',
    '{"platform":"all","audience":{"tag":["tag2"]},"notification":{"alert":"hi"}}',
  ],
  ['GET', '/v3/push/cid?count=0'],
  ['GET', '/v3/devices/' + RID],
  ['GET', '/v3/devices/nope'],
  ['POST', '/v3/devices/' + RID, '{"tags":{"add":["深圳"]},"alias":"member_501"}'],
  ['POST', '/v3/devices/status', `{"registration_ids":["${RID}"]}`],
  ['GET', '/v3/tags'],
  ['GET', `/v3/tags/tag1/registration_ids/${RID}`],
  ['POST', '/v3/tags/tag2', `{"registration_ids":{"add":["${RID}"]}}`],
  ['DELETE', '/v3/tags/beta'],
  ['GET', '/v3/aliases/alias2'],
  ['POST', '/v3/aliases/alias2', '{"registration_ids":{"remove":["1a0018970a8b0fd6c0f"]}}'],
  ['DELETE', '/v3/aliases/alias3'],
  ['GET', '/v3/received?msg_ids=18100000000000001'],
  ['GET', '/v3/received/detail?msg_ids=18100000000000001'],
  ['GET', '/v3/messages?msg_ids=18100000000000001'],
  ['GET', '/v3/messages/detail?msg_ids=18100000000000001'],
  ['GET', '/v3/messages/detail'],
  ['POST', '/v3/status/message', `{"msg_id":"18100000000000001","registration_ids":["${RID}"]}`],
  ['POST', '/v3/status/message', '{}'],
  ['GET', '/v3/push'],
  ['GET', '/v3/nowhere'],
]

// Only what differs between two runs of the same requests: the wall-clock date, generated UUIDs.
const normalize = (text: string) =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')

describe('vendor answers with docs', () => {
  it('are byte for byte what they were before any route had docs', async () => {
    const { app } = await createTestApp()
    const joined = await app.inject({
      method: 'PUT',
      url: '/_sandbox/push/group',
      headers: { authorization: defaultAuth },
      payload: groupSetup,
    })
    expect(joined.statusCode).toBe(200)
    const out: string[] = []
    for (const [method, url, body, auth = defaultAuth] of [...requests, ...pushExtraRequests]) {
      const multipart = Buffer.isBuffer(body)
      const res = await app.inject({
        method,
        url,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(multipart ? { 'content-type': 'multipart/form-data; boundary=b' } : {}),
        },
        payload: body,
      })
      const headers = Object.entries(res.headers)
        .filter(([name]) => name !== 'date')
        .map(([name, value]) => `${name}: ${value}`)
        .sort()
      out.push(`### ${method} ${url}\n${res.statusCode}\n${headers.join('\n')}\n\n${res.body}\n`)
    }
    await expect(normalize(out.join('\n'))).toMatchFileSnapshot('./vendor-answers.snap.txt')
  })
})

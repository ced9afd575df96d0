import type { SandboxApp } from '../../src/app.js'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { apnsCertificate } from '../admin/certificates.js'
import { PNG, postForm, pythonForm } from '../fixtures/sign-forms.js'
import { basic, call } from '../helpers.js'
import { curlForm } from '../push/file-forms.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'
import { feignMultipart, goMultipart, png } from '../push/image-forms.js'
import { create, single } from '../push/schedule-helpers.js'
import { startReceiver } from '../scheduler/receiver.js'
import { advance, sendTimeIn } from '../sms/schedule-helpers.js'

/**
 * A busy app: a row in every table it can write to, state in memory (faults, windows), its clock
 * and settings moved, and refusals in its journal. For the reset (everything goes) and the export
 * (everything travels).
 */
export async function useEverything(app: SandboxApp, auth: { authorization: string }) {
  const receiver = await startReceiver()
  const ok = async (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) => {
    const res = await call(app, method, url, body, auth)
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.raw}`)
    return res.body
  }
  await ok('POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
  await ok('POST', '/v1/messages', {
    mobile: '13800138001',
    temp_id: 2,
    temp_para: { order: 'R', days: '1' },
  })
  await ok('POST', '/v1/schedule', {
    send_time: await sendTimeIn(app, 3_600_000, auth),
    mobile: '13800138002',
    temp_id: 2,
    temp_para: { order: 'S', days: '2' },
  })
  await ok('POST', '/v1/templates', { template: '新模板{{x}}', type: 2 })
  await postForm(
    app,
    '/v1/sign',
    pythonForm({ sign: '重置签名', images: [{ name: 'a.png', bytes: PNG }] }),
    auth.authorization,
  )
  await ok('POST', '/_sandbox/sms/templates/4/review', { status: 1 })
  await ok('GET', '/v1/report') // the 5-second poll window is now open
  await ok('PATCH', '/_sandbox/app', {
    callback_url: receiver.url,
    balances: { market: 1 },
    blacklisted: true,
  })
  await ok('PATCH', '/_sandbox/app', { blacklisted: false, settings: { rate_limits: { device: 9 } } })
  await ok('POST', '/_sandbox/sms/replies', { mobile: '13800138003', content: 'TD' })
  const pushed = await ok('POST', '/v3/push', pushBody())
  await ok('POST', `/_sandbox/push/messages/${pushed.msg_id}/clicks`, { registration_id: ANDROID_1 })
  await ok('POST', '/_sandbox/push/devices', { platform: 'ios', alias: 'resetme', tags: ['t1'] })
  await ok('POST', `/v3/devices/${ANDROID_1}`, { tags: { add: ['extra'] }, alias: 'renamed' })
  await create(app, single('2026-01-01 08:00:01'), auth) // Beijing: fires a second from the start
  const file = curlForm(`${ANDROID_1}\n`)
  const uploaded = await app.inject({
    method: 'POST',
    url: '/v3/files/registration_id',
    headers: { ...auth, 'content-type': file.contentType },
    payload: file.body,
  })
  if (uploaded.statusCode !== 200) throw new Error(`POST /v3/files/registration_id: ${uploaded.body}`)
  // The JPush resources: an image and its file, a push template, a push plan, a test device, and
  // an APNs certificate uploaded on the Admin API by the app's developer.
  const form = async (url: string, f: { contentType: string; body: Buffer }, headers = auth) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: {
        ...headers,
        'content-type': f.contentType,
        host: headers === auth ? 'api.jpush.cn' : 'admin.jpush.cn',
      },
      payload: f.body,
    })
    if (res.statusCode !== 200) throw new Error(`POST ${url}: ${res.body}`)
    return res.json()
  }
  await form(
    '/v3/images/byfiles',
    feignMultipart({ image_type: '2' }, [{ field: 'oppo_file', name: 'oppo.png', bytes: png(144, 144) }]),
  )
  await ok('POST', '/_sandbox/push/templates', {
    name: 'Parcel departed',
    push: { platform: 'all', notification: { alert: '{{content}}' } },
  })
  await ok('POST', '/v3/push_plan/create', { name: 'plan_1', description: 'everything' })
  await ok('POST', '/v3/test/model/add', { device_name: 'my phone', registration_id: ANDROID_1 })
  const appKey = Buffer.from(auth.authorization.slice(6), 'base64').toString().split(':')[0]
  const now = (await ok('GET', '/_sandbox/clock')).now
  const cert = apnsCertificate({
    cn: 'Apple Development IOS Push Services: com.example.app',
    password: 'p',
    now,
  })
  await form(
    `/v1/app/${appKey}/certificate`,
    goMultipart({ devCertificatePassword: 'p' }, [
      { field: 'devCertificateFile', name: 'dev.p12', bytes: cert },
    ]),
    { authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET) },
  )
  // Refused: in the journal with their reasons.
  await call(app, 'POST', '/v1/messages', { mobile: '13800138004', temp_id: 99 }, auth)
  await ok('POST', '/_sandbox/faults', { path: '/v1/messages', code: 50019, times: 5 })
  await advance(app, 2_000, auth) // reports due, callbacks attempted, the push task fired
}

import { describe, expect, it } from 'vitest'
import {
  type Click,
  type DecidedSign,
  type DecidedTemplate,
  type DeviceChange,
  type Fault,
  type Replied,
  SandboxError,
  type SteeredReport,
} from '../../client/src/index.js'
import { keysIn, keysOf } from './keys.js'
import { listening } from './sandbox.js'

// The client's inspection and steering calls against a sandbox on a real port: faults, devices,
// the carrier's reports, the handsets' replies, the reviewer, the codes.

const s = listening()
const MOBILE = '13800138000'
const notification = { mobile: MOBILE, temp_id: 2, temp_para: { order: 'S1', days: '1' } }

describe('faults', () => {
  it('arms, lists and disarms; the armed fault fails the next request only', async () => {
    const sb = await s.newApp()
    const armed = await sb.faults.arm({ method: 'POST', path: '/v1/messages', code: 50019, times: 2 })
    expect(armed).toEqual({
      id: expect.any(Number),
      method: 'POST',
      path: '/v1/messages',
      match: null,
      code: 50019,
      status: 500,
      message: 'server error',
      delay_ms: 0,
      remaining: 2,
    })
    expect(keysIn(armed)).toEqual(
      keysOf<Fault>({
        id: true,
        method: true,
        path: true,
        match: true,
        code: true,
        status: true,
        message: true,
        delay_ms: true,
        remaining: true,
      }),
    )
    const failed = await s.vendor(sb, 'POST', '/v1/messages', notification)
    expect(failed).toEqual({ status: 500, body: { error: { code: 50019, message: 'server error' } } })
    expect(await sb.faults.list()).toEqual([{ ...armed, remaining: 1 }])
    expect(await sb.faults.disarm()).toBe(1)
    expect(await sb.faults.list()).toEqual([])
    expect((await s.vendor(sb, 'POST', '/v1/messages', notification)).status).toBe(200)
  })

  it('a fault aimed at one recipient fails only that one', async () => {
    const sb = await s.newApp()
    await sb.faults.arm({ path: '/v1/messages', code: 50014, match: { mobile: '13800138001' } })
    expect((await s.vendor(sb, 'POST', '/v1/messages', notification)).status).toBe(200)
    const aimed = await s.vendor(sb, 'POST', '/v1/messages', { ...notification, mobile: '13800138001' })
    expect(aimed.body.error.code).toBe(50014)
  })

  it('a fault that could never fire is refused, naming why', async () => {
    const sb = await s.newApp()
    const err = await sb.faults.arm({ path: '/v1/mesages', code: 50019 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SandboxError)
    expect(err).toMatchObject({ status: 400, code: 90020, body: { error: { code: 90020 } } })
    expect((err as Error).message).toContain('"path": no route serves /v1/mesages')
  })
})

describe('codes', () => {
  it('latestCode reads the code the real service hides, which then verifies', async () => {
    const sb = await s.newApp()
    const sent = await s.vendor(sb, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const code = await sb.latestCode(`+86${MOBILE}`)
    expect(code).toMatchObject({ msg_id: sent.body.msg_id, mobile: MOBILE, verified: false })
    const valid = await s.vendor(sb, 'POST', `/v1/codes/${code.msg_id}/valid`, { code: code.code })
    expect(valid.body).toEqual({ is_valid: true })
    expect((await sb.latestCode(MOBILE)).verified).toBe(true)
  })

  it('latestCode of a mobile that got none is 404 90044', async () => {
    const sb = await s.newApp()
    await expect(sb.latestCode('13900139000')).rejects.toMatchObject({ status: 404, code: 90044 })
  })
})

describe('devices', () => {
  it('registers a device, sees the push it received, brings it offline and online', async () => {
    const sb = await s.newApp()
    const device = await sb.devices.register({ platform: 'android', alias: 'buyer1', tags: ['vip'] })
    expect(device).toMatchObject({ platform: 'android', alias: 'buyer1', tags: ['vip'], online: true })
    expect((await sb.devices.list()).map(d => d.registration_id)).toContain(device.registration_id)
    const rid = device.registration_id
    const push = (alert: string) =>
      s.vendor(sb, 'POST', '/v3/push', {
        platform: 'all',
        audience: { alias: ['buyer1'] },
        notification: { alert },
        options: { time_to_live: 600 },
      })
    const first = await push('first')
    expect(first.status).toBe(200)
    const received = await sb.pushes({ registration_id: rid })
    expect(received.messages).toEqual([
      expect.objectContaining({ msg_id: first.body.msg_id, registration_id: rid, platform: 'android' }),
    ])
    const click = await sb.devices.click(first.body.msg_id, rid)
    expect(click).toMatchObject({ kind: 'notification' })
    expect(keysIn(click)).toEqual(
      keysOf<Click>({ msg_id: true, registration_id: true, platform: true, kind: true, clicked_at: true }),
    )
    const offline = await sb.devices.setOnline(rid, false)
    expect(offline.online).toBe(false)
    expect(keysIn(offline)).toEqual(
      keysOf<DeviceChange>({
        registration_id: true,
        platform: true,
        alias: true,
        tags: true,
        mobile: true,
        online: true,
        channel: true,
        apns_environment: true,
        last_online_time: true,
        delivered: true,
      }),
    )
    const second = await push('second')
    expect((await sb.pushes({ msg_id: second.body.msg_id })).messages).toEqual([])
    expect(await sb.devices.setOnline(rid, true)).toMatchObject({ online: true, delivered: 1 })
    expect((await sb.pushes({ msg_id: second.body.msg_id })).messages).toHaveLength(1)
  })
})

describe('the carrier, handsets and the reviewer', () => {
  it('setReport decides the delivery report that falls due', async () => {
    const sb = await s.newApp()
    const { body } = await s.vendor(sb, 'POST', '/v1/messages', notification)
    const steered = await sb.sms.setReport(body.msg_id, 4003)
    expect(steered).toMatchObject({ msg_id: body.msg_id, status: 4003 })
    expect(keysIn(steered)).toEqual(
      keysOf<SteeredReport>({ msg_id: true, mobile: true, status: true, report_at: true }),
    )
    await sb.advanceClock(5_000)
    const reports = await s.vendor(sb, 'GET', '/v1/report')
    expect(reports.body).toEqual([expect.objectContaining({ msgId: body.msg_id, status: 4003 })])
    await expect(sb.sms.setReport('999', 4001)).rejects.toMatchObject({ status: 404, code: 90040 })
  })

  it('reply plays a handset; TD unsubscribes it', async () => {
    const sb = await s.newApp()
    const replied = await sb.sms.reply(MOBILE, 'TD')
    expect(replied).toMatchObject({ mobile: MOBILE, content: 'TD', unsubscribed: true })
    expect(keysIn(replied)).toEqual(
      keysOf<Replied>({ mobile: true, content: true, reply_time: true, unsubscribed: true }),
    )
    expect((await sb.app()).unsubscribed).toEqual([MOBILE])
  })

  it('reviewTemplate and reviewSign decide at once', async () => {
    const sb = await s.newApp()
    const template = await sb.sms.reviewTemplate(4, 1)
    expect(template).toMatchObject({ temp_id: 4, status: 1, refuse_reason: null })
    expect(keysIn(template)).toEqual(
      keysOf<DecidedTemplate>({
        temp_id: true,
        template: true,
        type: true,
        ttl: true,
        remark: true,
        status: true,
        refuse_reason: true,
      }),
    )
    const sign = await sb.sms.reviewSign(1, 2, 'no licence')
    expect(sign).toMatchObject({ sign_id: 1, status: 2, refuse_reason: 'no licence' })
    expect(keysIn(sign)).toEqual(
      keysOf<DecidedSign>({
        sign_id: true,
        sign: true,
        status: true,
        is_default: true,
        use_status: true,
        refuse_reason: true,
      }),
    )
    await expect(sb.sms.reviewTemplate(99, 1)).rejects.toMatchObject({ status: 404, code: 90041 })
  })
})

describe('images, test devices and push templates', () => {
  it('shows the images the app made, with what each channel adopted', async () => {
    const sb = await s.newApp()
    const made = await s.vendor(sb, 'POST', '/v3/images/byurls', {
      image_type: 2,
      image_url: 'https://cdn.example.com/icon.png',
    })
    const images = await sb.images.list()
    expect(images.map(i => i.media_id)).toEqual([made.body.media_id])
    const one = await sb.images.get(made.body.media_id)
    expect(one.channels.jiguang).toEqual({
      value: 'https://cdn.example.com/icon.png',
      from: 'https://cdn.example.com/icon.png',
    })
    await expect(sb.images.get('jgmedia-2-nope')).rejects.toMatchObject({ code: 90045, status: 404 })
  })

  it('sets the test devices a test-mode push reaches', async () => {
    const sb = await s.newApp()
    const set = await sb.testDevices.set('1a0018970a8b0fd6c0e', 'QA phone')
    expect(set).toMatchObject({
      registration_id: '1a0018970a8b0fd6c0e',
      device_name: 'QA phone',
      platform: 'android',
    })
    expect((await sb.testDevices.list()).map(d => d.device_name)).toEqual(['QA phone'])
    const pushed = await s.vendor(sb, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'qa' },
      options: { test_model: true },
    })
    expect(pushed.status).toBe(200)
    const got = await sb.pushes({ msg_id: pushed.body.msg_id })
    expect(got.messages.map(p => p.registration_id)).toEqual(['1a0018970a8b0fd6c0e'])
    await sb.testDevices.remove('1a0018970a8b0fd6c0e')
    expect(await sb.testDevices.list()).toEqual([])
    await expect(sb.testDevices.remove('1a0018970a8b0fd6c0e')).rejects.toMatchObject({
      code: 90043,
      status: 404,
    })
  })

  it('makes push templates that POST /v3/push/template pushes', async () => {
    const sb = await s.newApp()
    const made = await sb.pushTemplates.create({
      name: 'Hello',
      push: { platform: 'all', notification: { alert: 'Hello {{name}}' } },
    })
    expect(made).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{12}$/), params: ['name'] })
    const saved = await sb.pushTemplates.save('welcome1', {
      name: 'Welcome',
      push: { platform: 'all', message: { msg_content: 'hi {{who}}' } },
    })
    expect(saved.params).toEqual(['who'])
    const pushed = await s.vendor(sb, 'POST', '/v3/push/template', {
      id: made.id,
      params: [{ audience: { alias: ['alias2'] }, keys: { name: 'Ann' } }],
    })
    expect(pushed.body.data.push_list[0].code).toBe(0)
    await sb.pushTemplates.remove(made.id)
    expect((await sb.pushTemplates.list()).map(t => t.id)).toEqual(['welcome1'])
  })
})

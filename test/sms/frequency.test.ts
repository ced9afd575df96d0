import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { MOBILE, OTHER_MOBILE } from './support.js'

// sms-service.md §8: limits per app and per called mobile (50009). Windows slide with the clock:
// a message counts while it is younger than the window; "per day" is the calendar day in
// SMS_TIME_ZONE (Beijing by default). Each test moves the ManualClock to show the window reopen.

const post = (app: SandboxApp, url: string, body: unknown) => call(app, 'POST', url, body)
const voice = (app: SandboxApp, mobile = MOBILE) => post(app, '/v1/voice_codes', { mobile })
const textCode = (app: SandboxApp, mobile = MOBILE) => post(app, '/v1/codes', { mobile, temp_id: 1 })
const notify = (app: SandboxApp, order: string, mobile = MOBILE) =>
  post(app, '/v1/messages', { mobile, temp_id: 2, temp_para: { order, days: '3' } })
const market = (app: SandboxApp, name: string, mobile = MOBILE) =>
  post(app, '/v1/messages', { mobile, temp_id: 3, temp_para: { name } })
const codes = (results: Answer[]) => results.map(r => (r.status === 200 ? 200 : r.body.error?.code))
type Answer = Awaited<ReturnType<typeof call>>
const times = (n: number, send: (i: number) => Promise<Answer>) =>
  Promise.all(Array.from({ length: n }, (_, i) => send(i)))

describe('frequency limits (50009)', () => {
  it('spaces voice codes to one mobile at least 20 s apart', async () => {
    const { app, clock } = await createTestApp()
    expect((await voice(app)).status).toBe(200)
    clock.advance(19_999)
    expect((await voice(app)).body.error).toEqual({ code: 50009, message: 'out of freq' })
    expect((await voice(app, OTHER_MOBILE)).status).toBe(200)
    clock.advance(1)
    expect((await voice(app)).status).toBe(200)
    // A refused request does not restart the window; an accepted one does.
    expect((await voice(app)).body.error.code).toBe(50009)
  })

  it('allows 200 text codes per mobile in any 24 h', async () => {
    const { app, clock } = await createTestApp()
    expect((await times(100, () => textCode(app))).every(r => r.status === 200)).toBe(true)
    clock.advance(12 * 3600_000)
    // A "custom code" through /v1/messages with the verification template counts as well.
    const custom = await post(app, '/v1/messages', {
      mobile: MOBILE,
      temp_id: 1,
      temp_para: { code: '1234' },
    })
    expect(custom.status).toBe(200)
    expect((await times(99, () => textCode(app))).every(r => r.status === 200)).toBe(true)
    expect((await textCode(app)).body.error.code).toBe(50009)
    expect((await textCode(app, OTHER_MOBILE)).status).toBe(200)
    clock.advance(12 * 3600_000 - 1)
    expect((await textCode(app)).body.error.code).toBe(50009)
    clock.advance(1)
    // The first 100 left the window: exactly 100 more fit.
    const reopened = await times(101, () => textCode(app))
    expect(reopened.filter(r => r.status === 200)).toHaveLength(100)
  })

  it('allows 3 identical notifications per 10 minutes, different content unlimited', async () => {
    const { app, clock } = await createTestApp()
    expect(codes(await times(3, () => notify(app, 'A1')))).toEqual([200, 200, 200])
    expect(codes([await notify(app, 'A1')])).toEqual([50009])
    expect(codes(await times(5, i => notify(app, `B${i}`)))).toEqual([200, 200, 200, 200, 200])
    clock.advance(10 * 60_000 - 1)
    expect(codes([await notify(app, 'A1')])).toEqual([50009])
    clock.advance(1)
    expect(codes([await notify(app, 'A1')])).toEqual([200])
  })

  it('allows 200 notifications per mobile per Beijing calendar day', async () => {
    const { app, clock } = await createTestApp()
    // 2026-01-01T00:00Z is 08:00 in Beijing: that day ends at 16:00Z, 8 hours later.
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect((await times(200, i => notify(app, `N${i}`))).every(r => r.status === 200)).toBe(true)
    expect(codes([await notify(app, 'late')])).toEqual([50009])
    clock.set(Date.parse('2026-01-01T15:59:59.999Z'))
    expect(codes([await notify(app, 'late')])).toEqual([50009])
    clock.advance(1)
    expect(codes([await notify(app, 'late')])).toEqual([200])
  })

  it('allows 3 marketing messages per mobile per 10 minutes, whatever the content', async () => {
    const { app, clock } = await createTestApp()
    expect(codes(await times(3, i => market(app, `m${i}`)))).toEqual([200, 200, 200])
    expect(codes([await market(app, 'other')])).toEqual([50009])
    expect(codes([await market(app, 'other', OTHER_MOBILE)])).toEqual([200])
    clock.advance(10 * 60_000)
    expect(codes([await market(app, 'other')])).toEqual([200])
  })

  it('counts per app: another app may text the same mobile', async () => {
    const { app } = await createTestApp()
    await voice(app)
    const stranger = { authorization: basic(newKey('a'), newKey('s')) }
    expect((await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE }, stranger)).status).toBe(200)
    expect((await voice(app)).body.error.code).toBe(50009)
  })

  it('counts the same phone whatever its notation (+86, 86 or national)', async () => {
    const { app } = await createTestApp()
    await voice(app, '13800138000')
    expect((await voice(app, '+8613800138000')).body.error?.code).toBe(50009)
    expect((await voice(app, '8613800138000')).body.error?.code).toBe(50009)
  })
})

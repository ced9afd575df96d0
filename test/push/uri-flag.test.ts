import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1 } from './helpers.js'

// issue 29, point 6: jpush-api-csharp-client (since 1.2.3) sends android.uri_flag, a string
// (Jiguang.JPush/Model/Notification.cs, `[JsonProperty("uri_flag")] public string URIFlag`).

const push = (uriFlag: unknown) => ({
  platform: ['android'],
  audience: { registration_id: [ANDROID_1] },
  notification: {
    android: { alert: 'hi', uri_activity: 'cn.jpush.OpenClickActivity', uri_flag: uriFlag },
  },
})

describe('android.uri_flag', () => {
  it('is taken as the C# client sends it (a string) or as a number, not 1009', async () => {
    const { app } = await createTestApp()
    for (const flag of ['0x10000000', 268435456]) {
      const res = await call(app, 'POST', '/v3/push', push(flag))
      expect([res.status, res.body.error]).toEqual([200, undefined])
      expect(res.body.msg_id).toMatch(/^\d+$/)
    }
  })

  it('of another type is 1003', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', push({ flag: 1 }))
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(1003)
  })
})

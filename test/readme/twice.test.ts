import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { defaultAuth } from '../helpers.js'
import { runPage, startSandbox, tour } from './tour.js'

// The whole tour — every page, in order — twice against one sandbox (issue 18 §6): each page's
// examples use apps of their own and remove them, so the second run reads as the first. The
// default app is the README quick start's only (one verification code per run): the tour leaves
// everything else of it as it found it.

let sandbox: { app: SandboxApp; url: string }
beforeAll(async () => {
  sandbox = await startSandbox()
})
afterAll(() => sandbox?.app.close())

/** What the control plane shows of the default app, but for what moves by itself (its clock's now). */
async function defaultApp() {
  const get = async (url: string) => {
    const res = await sandbox.app.inject({ method: 'GET', url, headers: { authorization: defaultAuth } })
    expect(res.statusCode, url).toBe(200)
    return res.json()
  }
  const { clock, ...settings } = await get('/_sandbox/app')
  return {
    settings: { ...settings, clock: { offset_ms: clock.offset_ms } },
    rest: {
      templates: (await get('/_sandbox/sms/templates')).templates,
      signs: (await get('/_sandbox/sms/signs')).signs,
      smsSchedules: (await get('/_sandbox/sms/schedules')).schedules,
      replies: (await get('/_sandbox/sms/replies')).replies,
      devices: (await get('/_sandbox/push/devices')).devices,
      pushes: (await get('/_sandbox/push/messages')).messages,
      pushSchedules: (await get('/_sandbox/push/schedules')).schedules,
      group: await get('/_sandbox/push/group'),
      callbacks: (await get('/_sandbox/callbacks')).callbacks,
      faults: (await get('/_sandbox/faults')).faults,
    },
    texts: (await get('/_sandbox/sms/messages?limit=1000')).messages as Array<{
      msg_id: string
      kind: string
      mobile: string
      units: number
    }>,
  }
}

describe('the whole tour', () => {
  it('runs twice against one sandbox, and leaves the default app as it found it', {
    timeout: 240_000,
  }, async () => {
    const before = await defaultApp()
    for (const round of [1, 2]) {
      for (const page of tour.filter(p => p.segments.length > 0)) {
        expect(await runPage(page.path, page.segments, sandbox.url), `round ${round}`).toBeUndefined()
      }
    }
    const after = await defaultApp()
    expect(after.rest).toEqual(before.rest)
    const seen = new Set(before.texts.map(t => t.msg_id))
    const added = after.texts.filter(t => !seen.has(t.msg_id))
    // The quick start's code, once a round, and what it was billed: nothing else.
    expect(added.map(t => [t.kind, t.mobile])).toEqual([
      ['code', '13800138000'],
      ['code', '13800138000'],
    ])
    const billed = added.reduce((sum, t) => sum + t.units, 0)
    expect(after.settings).toEqual({
      ...before.settings,
      balances: { ...before.settings.balances, industry: before.settings.balances.industry - billed },
    })
  })
})

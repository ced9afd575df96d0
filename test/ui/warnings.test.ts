import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, markPage, newTenant, type Tenant, uiHarness } from './browser.js'

// Issue 30: the production advisor's warnings (docs/advisor.md) show where what a warned call made
// shows, not only on the call in the Requests view: on each push on the devices the warning
// concerns (apns-environment on an iOS build, xiaomi-channel-id on a Xiaomi phone, not on the
// other devices of the same push), and on each text on its phone (sms-marketing-hours), each with
// its rule, message, source link and a link to the call. Live: the calls are made while the view
// is open. A correct call shows no warning.

const ui = uiHarness()
const HOUR = 3_600_000

/** The journal's seq of the tenant's newest call to `path`. */
async function seqOf(tenant: Tenant, path: string): Promise<number> {
  const { body } = await ui.api(tenant, 'GET', `/_sandbox/requests?path=${encodeURIComponent(path)}&limit=1`)
  return body.requests[0].seq
}

/** The Requests view opened from a warning's call link shows that call, opened. */
async function followCallLink(page: Page, warning: ReturnType<Page['locator']>, seq: number) {
  const call = warning.locator('a.call')
  expect(await call.getAttribute('href')).toBe(`#/requests/${seq}`)
  await call.click()
  const entry = page.locator(`details.request[data-seq="${seq}"][open]`)
  await entry.waitFor({ timeout: LIVE_MS })
  return entry
}

describe("the advisor's warnings on devices and phones", { timeout: BROWSER_TEST_MS }, () => {
  it('a push to a development build without apns_production false: a badge on the iOS device, live; a correct push none', async () => {
    const tenant = newTenant('uiwarndev')
    const ios = await ui.api(tenant, 'POST', '/_sandbox/push/devices', {
      platform: 'ios',
      apns_environment: 'development',
    })
    const rid = ios.body.registration_id
    const { page } = await ui.open(tenant, `#/devices/${rid}`)
    await page.locator('dd.apns-environment', { hasText: 'development' }).waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)

    // A correct push first (to a development build, apns_production false): received, no badge.
    const right = await ui.api(tenant, 'POST', '/v3/push', {
      platform: ['ios'],
      audience: { registration_id: [rid] },
      notification: { alert: 'right' },
      options: { apns_production: false },
    })
    expect(right.status).toBe(200)
    // Then the SDKs' mistake the other way round: absent is production.
    const wrong = await ui.api(tenant, 'POST', '/v3/push', {
      platform: ['ios'],
      audience: { registration_id: [rid] },
      notification: { alert: 'wrong' },
    })
    expect(wrong.status).toBe(200)

    const missed = page.locator(`.not-received li[data-msg-id="${wrong.body.msg_id}"]`)
    const warning = missed.locator('li.warning[data-rule="apns-environment"]')
    await warning.waitFor({ timeout: LIVE_MS })
    expect(await warning.locator('.badge.warning').innerText()).toBe('warning apns-environment')
    // The badge follows the page's colour scheme: a light badge on a dark page is a glare.
    const badge = warning.locator('.badge.warning')
    const lightness = () =>
      badge.evaluate(el => {
        const [r, g, b] = getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number)
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255
      })
    expect(await lightness()).toBeGreaterThan(0.8)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await lightness()).toBeLessThan(0.3)
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await warning.locator('.message').innerText()).toContain('development builds')
    const source = warning.locator('.source a').first()
    expect(await source.getAttribute('href')).toBe(
      'https://github.com/cavlabs/jiguang-sdk-go/blob/HEAD/api/jpush/push/options/options.go#L41-L47',
    )
    const received = page.locator(`article.push[data-msg-id="${right.body.msg_id}"]`)
    await received.waitFor({ timeout: LIVE_MS })
    expect(await received.locator('li.warning').count()).toBe(0)
    expect(await page.locator('li.warning').count()).toBe(1)
    await ui.screenshot(page, 'devices-warning')
    expect(await notReloaded()).toBe(true)

    const entry = await followCallLink(page, warning, await seqOf(tenant, '/v3/push'))
    expect(await entry.locator('summary').innerText()).toContain('1 warning')
  })

  it("a Xiaomi push without channel_id: the badge on the Xiaomi phone, not on the push's other devices", async () => {
    const tenant = newTenant('uiwarnmi')
    const mi = await ui.api(tenant, 'POST', '/_sandbox/push/devices', {
      platform: 'android',
      channel: 'xiaomi',
    })
    const plain = await ui.api(tenant, 'POST', '/_sandbox/push/devices', { platform: 'android' })
    const { page } = await ui.open(tenant, `#/devices/${mi.body.registration_id}`)
    await page.locator('dd.channel', { hasText: 'xiaomi' }).waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)

    const pushed = await ui.api(tenant, 'POST', '/v3/push', {
      platform: ['android'],
      audience: { registration_id: [mi.body.registration_id, plain.body.registration_id] },
      notification: { alert: 'mi' },
      options: { third_party_channel: { xiaomi: { distribution: 'secondary_push' } } },
    })
    expect(pushed.status).toBe(200)
    const seq = await seqOf(tenant, '/v3/push')
    const card = page.locator(`article.push[data-msg-id="${pushed.body.msg_id}"]`)
    const warning = card.locator('li.warning[data-rule="xiaomi-channel-id"]')
    await warning.waitFor({ timeout: LIVE_MS })
    expect(await warning.innerText()).toContain('third_party_channel.xiaomi has no channel_id')
    expect(await warning.locator('.source a').getAttribute('href')).toBe(
      'https://docs.jiguang.cn/jpush/client/Android/android_channel_id',
    )
    expect(await notReloaded()).toBe(true)

    // The same push on the phone without Xiaomi's channel: no badge.
    await page.goto(`${page.url().split('#')[0]}#/devices/${plain.body.registration_id}`)
    const other = page.locator(`article.push[data-msg-id="${pushed.body.msg_id}"]`)
    await other.waitFor({ timeout: LIVE_MS })
    expect(await other.locator('li.warning').count()).toBe(0)

    await page.goto(`${page.url().split('#')[0]}#/devices/${mi.body.registration_id}`)
    await followCallLink(page, warning, seq)
  })

  it('a marketing text at 23:00 Beijing time: a badge on its phone, live; a daytime one none', async () => {
    const tenant = newTenant('uiwarnsms')
    const mobile = '13800138070'
    const marketing = { mobile, temp_id: 3, temp_para: { name: 'Li' } }
    const { page } = await ui.open(tenant, `#/phones/${mobile}`)
    const notReloaded = await markPage(page)

    // 08:00 Beijing (the test clock's start): within carrier hours.
    const day = await ui.api(tenant, 'POST', '/v1/messages', marketing)
    expect(day.status).toBe(200)
    await page.locator(`article.sms[data-msg-id="${day.body.msg_id}"]`).waitFor({ timeout: LIVE_MS })
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }) // 23:00
    const night = await ui.api(tenant, 'POST', '/v1/messages', marketing)
    expect(night.status).toBe(200)

    const text = page.locator(`article.sms[data-msg-id="${night.body.msg_id}"]`)
    const warning = text.locator('li.warning[data-rule="sms-marketing-hours"]')
    await warning.waitFor({ timeout: LIVE_MS })
    expect(await warning.locator('.badge.warning').innerText()).toBe('warning sms-marketing-hours')
    expect(await warning.locator('.message').innerText()).toContain('from 08:00 to 21:00 only')
    expect(await warning.locator('.source').innerText()).toContain('jsms_rules.md')
    expect(await page.locator(`article.sms[data-msg-id="${day.body.msg_id}"] li.warning`).count()).toBe(0)
    await ui.screenshot(page, 'phones-warning')
    expect(await notReloaded()).toBe(true)

    const entry = await followCallLink(page, warning, await seqOf(tenant, '/v1/messages'))
    expect(await entry.locator('li.warning[data-rule="sms-marketing-hours"]').count()).toBe(1)
  })
})

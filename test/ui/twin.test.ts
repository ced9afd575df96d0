import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, newTenant, uiHarness } from './browser.js'

// Issue 30: the Devices view shows each device's twin (maker channel, APNs environment), the
// route each received push came by, and for a push that did not arrive, where it went and why not.

const ui = uiHarness()

describe('the web UI shows how a push reached a phone', { timeout: BROWSER_TEST_MS }, () => {
  it("a device's channel and APNs environment, each push's route, and the reason one did not arrive", async () => {
    const tenant = newTenant('uitwin')
    const mi = await ui.api(tenant, 'POST', '/_sandbox/push/devices', {
      platform: 'android',
      channel: 'xiaomi',
      online: false,
    })
    const dev = await ui.api(tenant, 'POST', '/_sandbox/push/devices', {
      platform: 'ios',
      apns_environment: 'development',
    })
    const pushed = await ui.api(tenant, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [mi.body.registration_id, dev.body.registration_id] },
      notification: { alert: 'twin' },
    })
    expect(pushed.status).toBe(200)

    const { page } = await ui.open(tenant, `#/devices/${mi.body.registration_id}`)
    await page.locator('dd.channel', { hasText: 'xiaomi' }).waitFor({ timeout: LIVE_MS })
    const card = page.locator(`article.push[data-msg-id="${pushed.body.msg_id}"]`)
    await card.locator('.route', { hasText: 'xiaomi' }).waitFor({ timeout: LIVE_MS })

    await page.goto(`${page.url().split('#')[0]}#/devices/${dev.body.registration_id}`)
    await page.locator('dd.apns-environment', { hasText: 'development' }).waitFor({ timeout: LIVE_MS })
    const missed = page.locator(`.not-received li[data-msg-id="${pushed.body.msg_id}"]`)
    await missed.waitFor({ timeout: LIVE_MS })
    expect(await missed.innerText()).toContain('expired · route none · why not wrong-apns-environment')
    expect(await missed.locator('.reason').innerText()).toBe('wrong-apns-environment')
    await ui.screenshot(page, 'devices-twin')
  })
})

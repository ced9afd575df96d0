import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, newTenant, uiHarness } from './browser.js'

// Getting in: the browser's own Basic prompt, `/` for a browser, switching apps; and what the page
// is made of (small, from this server only, every control labelled, readable on a narrow window).

const ui = uiHarness()

describe('signing in to the web UI', { timeout: BROWSER_TEST_MS }, () => {
  it('a browser without credentials is challenged (401, WWW-Authenticate: Basic)', async () => {
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    const challenged = page.waitForResponse(r => r.url() === `${ui.url}/_sandbox/ui/`)
    // A person sees the browser's prompt here; a browser driven by a test has nobody to answer it.
    const failed = await page.goto(`${ui.url}/_sandbox/ui/`).then(
      () => '',
      err => String(err),
    )
    expect(failed).toContain('ERR_INVALID_AUTH_CREDENTIALS')
    const res = await challenged
    expect(res.status()).toBe(401)
    expect(res.headers()['www-authenticate']).toBe('Basic realm="jiguang-sandbox", charset="UTF-8"')
    await context.close()
  })

  it('a browser opening / lands on the UI, signed in with what it answered the prompt with', async () => {
    const tenant = newTenant('uiroot')
    const context = await ui.browser.newContext({
      httpCredentials: { username: tenant.appKey, password: tenant.secret },
    })
    const page = await context.newPage()
    const res = await page.goto(`${ui.url}/`)
    expect(res?.status()).toBe(200)
    expect(new URL(page.url()).pathname).toBe('/_sandbox/ui/')
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(tenant.appKey)
    await context.close()
  })

  it('switches to another app in the page, and back', async () => {
    const first = newTenant('uifirst')
    const second = newTenant('uisecond')
    await ui.api(second, 'POST', '/v1/messages', {
      mobile: '13900139000',
      temp_id: 2,
      temp_para: { order: 'B', days: '1' },
    })
    const { page, context } = await ui.open(first, '#/phones')
    await page.getByText('No SMS sent yet.').waitFor({ timeout: LIVE_MS })

    await page.getByRole('button', { name: `App ${first.appKey}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Switch app' })
    await dialog.getByLabel('appKey').fill(second.appKey)
    await dialog.getByLabel('masterSecret').fill('wrongsecret0000000000000')
    await dialog.getByRole('button', { name: 'Switch', exact: true }).click()
    await dialog.getByText(`Could not sign in as ${second.appKey}`).waitFor({ timeout: LIVE_MS })
    await dialog.getByLabel('masterSecret').fill(second.secret)
    await dialog.getByRole('button', { name: 'Switch', exact: true }).click()
    await page.getByRole('link', { name: /13900139000/ }).waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(second.appKey)
    // Live for the new app: its next text shows.
    await ui.api(second, 'POST', '/v1/messages', {
      mobile: '13900139001',
      temp_id: 2,
      temp_para: { order: 'C', days: '1' },
    })
    await page.getByRole('link', { name: /13900139001/ }).waitFor({ timeout: LIVE_MS })

    // The apps used recently are one click away.
    await page.getByRole('button', { name: `App ${second.appKey}` }).click()
    await dialog.getByRole('button', { name: `Switch to ${first.appKey}` }).click()
    await page.getByText('No SMS sent yet.').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(first.appKey)
    await context.close()
  })
})

describe('the page itself', { timeout: BROWSER_TEST_MS }, () => {
  it('loads in under 200 KB, everything from this server', async () => {
    const tenant = newTenant('uisize')
    const context = await ui.browser.newContext({
      httpCredentials: { username: tenant.appKey, password: tenant.secret },
    })
    const page = await context.newPage()
    const requests: Array<{ url: string; bytes: Promise<number> }> = []
    page.on('requestfinished', req =>
      requests.push({
        url: req.url(),
        bytes: req.sizes().then(s => s.responseBodySize + s.responseHeadersSize),
      }),
    )
    await page.goto(`${ui.url}/_sandbox/ui/`)
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    await page.waitForLoadState('networkidle')
    const total = (await Promise.all(requests.map(r => r.bytes))).reduce((a, b) => a + b, 0)
    console.log(`ui: first load ${requests.length} requests, ${total} bytes`)
    expect(total).toBeLessThan(200_000)
    for (const r of requests) expect(r.url.startsWith(ui.url), r.url).toBe(true)
    await context.close()
  })

  it('labels every control of every view', async () => {
    const tenant = newTenant('uilabels')
    await ui.api(tenant, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    await ui.api(tenant, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'hi' },
    })
    await ui.api(tenant, 'POST', '/_sandbox/faults', { path: '/v1/messages', code: 50019 })
    const { page, context } = await ui.open(tenant)
    const views = [
      'phones/13800138000',
      'devices/1a0018970a8b0fd6c0e',
      'scheduled',
      'callbacks',
      'templates',
      'clock',
      'settings',
    ]
    for (const view of views) {
      await page.goto(`${ui.url}/_sandbox/ui/#/${view}`)
      await page.locator('main h2').first().waitFor({ timeout: LIVE_MS })
      await page.locator('details').evaluateAll(all => {
        for (const d of all) d.setAttribute('open', '')
      })
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button')]
          .filter(el => {
            const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
            if (el instanceof HTMLButtonElement) return !(named || el.textContent?.trim())
            return !(named || (el as HTMLInputElement).labels?.length)
          })
          .map(el => el.outerHTML.slice(0, 120)),
      )
      expect(unlabelled, view).toEqual([])
    }
    await context.close()
  })

  it('is readable on a narrow window: one column, nothing wider than the screen', async () => {
    const tenant = newTenant('uinarrow')
    await ui.api(tenant, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    const { page, context } = await ui.open(tenant, '#/phones/13800138000', { width: 390, height: 844 })
    await page.locator('.sms.incoming').waitFor({ timeout: LIVE_MS })
    for (const view of [
      'phones/13800138000',
      'devices/1a0018970a8b0fd6c0e',
      'templates',
      'clock',
      'settings',
      'callbacks',
    ]) {
      await page.goto(`${ui.url}/_sandbox/ui/#/${view}`)
      await page.locator('main h2').first().waitFor({ timeout: LIVE_MS })
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, view).toBeLessThanOrEqual(0)
    }
    await page.goto(`${ui.url}/_sandbox/ui/#/phones/13800138000`)
    await page.locator('.sms.incoming').waitFor({ timeout: LIVE_MS })
    await ui.screenshot(page, 'narrow')
    await context.close()
  })
})

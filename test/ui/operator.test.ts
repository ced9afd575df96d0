import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, newTenant, uiHarness } from './browser.js'

// Operator mode: signed in as the operator (SANDBOX_OPERATOR), the page lists every app (GET
// /_sandbox/apps), live, searchable by appKey prefix, and opens any of them without its secret.

const ui = uiHarness()

describe('the web UI as the operator', { timeout: BROWSER_TEST_MS }, () => {
  it('lists the apps, live, and switches between two of them without their secrets', async () => {
    const prefix = `op${Date.now().toString(36)}`
    const first = newTenant(`${prefix}a`)
    const second = newTenant(`${prefix}b`)
    await ui.api(first, 'POST', '/v1/messages', {
      mobile: '13800138061',
      temp_id: 2,
      temp_para: { order: 'OP1', days: '1' },
    })
    await ui.api(second, 'POST', '/v1/messages', {
      mobile: '13800138062',
      temp_id: 2,
      temp_para: { order: 'OP2', days: '1' },
    })
    const context = await ui.browser.newContext({ viewport: { width: 1200, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${ui.url}/_sandbox/ui/`)
    await ui.signIn(page, 'operator')
    // No app named: the switcher opens, every app listed, the most recently active first.
    const dialog = page.getByRole('dialog', { name: 'Open an app' })
    await dialog.waitFor({ timeout: LIVE_MS })
    await dialog.getByLabel('appKey starts with').fill(prefix)
    const rows = dialog.locator('#operator-apps li[data-app-key]')
    await expect.poll(() => rows.count(), { timeout: LIVE_MS }).toBe(2)
    expect(await rows.first().getAttribute('data-app-key')).toBe(second.appKey)
    await ui.screenshot(page, 'operator')

    // Live: the first app's next request moves it to the top, marked active.
    await ui.api(first, 'POST', '/v1/messages', { mobile: '13800138061', temp_id: 99 })
    await expect
      .poll(() => rows.first().getAttribute('data-app-key'), { timeout: LIVE_MS })
      .toBe(first.appKey)
    expect(await rows.first().innerText()).toContain('active')

    await dialog.getByRole('button', { name: `Open ${first.appKey}` }).click()
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(first.appKey)
    expect(new URL(page.url()).searchParams.get('app')).toBe(first.appKey)
    await page.getByRole('link', { name: /13800138061/ }).waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#who').innerText()).toBe('operator')

    // The other app, from the header: its texts, live; the first app's are gone from the page.
    await page.getByRole('button', { name: `App ${first.appKey}` }).click()
    await dialog.getByLabel('appKey starts with').fill(prefix)
    await dialog.getByRole('button', { name: `Open ${second.appKey}` }).click({ timeout: LIVE_MS })
    await page.getByRole('link', { name: /13800138062/ }).waitFor({ timeout: LIVE_MS })
    expect(await page.getByRole('link', { name: /13800138061/ }).count()).toBe(0)
    await ui.api(second, 'POST', '/v1/messages', {
      mobile: '13800138063',
      temp_id: 2,
      temp_para: { order: 'OP3', days: '1' },
    })
    await page.getByRole('link', { name: /13800138063/ }).waitFor({ timeout: LIVE_MS })
    // What the operator does for an app is that app's: a template approved here is approved there.
    await page.goto(`${ui.url}/_sandbox/ui/?app=${second.appKey}#/templates`)
    await page.getByRole('button', { name: 'Approve template 4' }).click({ timeout: LIVE_MS })
    await page.locator('tr[data-temp-id="4"]', { hasText: 'approved' }).waitFor({ timeout: LIVE_MS })
    expect((await ui.api(second, 'GET', '/v1/templates/4')).body.status).toBe(1)
    expect((await ui.api(first, 'GET', '/v1/templates/4')).body.status).toBe(0)
    await context.close()
  })

  it('a wrong operator password is refused; an app the sandbox does not hold says so', async () => {
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${ui.url}/_sandbox/ui/?app=nosuchapp000000000000001`)
    await ui.signIn(page, 'operator', 'wrong')
    await page
      .locator('#sign-in-error', { hasText: 'Wrong operator user or password' })
      .waitFor({ timeout: LIVE_MS })
    await ui.signIn(page, 'operator')
    await page
      .getByRole('dialog', { name: 'Open an app' })
      .getByText('No app nosuchapp000000000000001 in this sandbox: open another.')
      .waitFor({ timeout: LIVE_MS })
    await context.close()
  })
})

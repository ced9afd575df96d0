import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, markPage, newTenant, uiHarness } from './browser.js'

// Operator mode: signed in as the operator (SANDBOX_OPERATOR), the page's landing is the list of
// every app (GET /_sandbox/apps) with its activity, refusals and last request — newest first,
// sortable, filtered, live — and any app opens in place without its secret, Back returning to it.

const ui = uiHarness()

/** The appKeys of the dashboard's rows, top to bottom. */
const keys = (page: Page) =>
  page
    .locator('#apps tbody tr[data-app-key]')
    .evaluateAll(rows => rows.map(r => r.getAttribute('data-app-key')))
const row = (page: Page, appKey: string) => page.locator(`#apps tr[data-app-key="${appKey}"]`)
const cell = (page: Page, appKey: string, column: string) =>
  row(page, appKey).locator(`td[data-label="${column}"]`).innerText()

async function signInAsOperator(page: Page, path = '/_sandbox/ui/') {
  await page.goto(`${ui.url}${path}`)
  await ui.signIn(page, 'operator')
}

describe("the operator's dashboard", { timeout: BROWSER_TEST_MS }, () => {
  it('lists every app with its activity, newest first, sorted and filtered, and live', async () => {
    const prefix = `op${Date.now().toString(36)}`
    const first = newTenant(`${prefix}a`)
    const second = newTenant(`${prefix}b`)
    await ui.api(first, 'POST', '/v1/messages', {
      mobile: '13800138061',
      temp_id: 2,
      temp_para: { order: 'OP1', days: '1' },
    })
    await ui.api(first, 'POST', '/v1/messages', { mobile: '13800138061', temp_id: 99 }) // refused
    await ui.api(second, 'POST', '/v1/messages', {
      mobile: '13800138062',
      temp_id: 2,
      temp_para: { order: 'OP2', days: '1' },
    })
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 800 } })
    // The page's clock, moved by the test to show that "active" wears off.
    await context.clock.install()
    const page = await context.newPage()
    await signInAsOperator(page)
    // No app named: the landing is the list of apps, not a dialog.
    await page.getByRole('heading', { name: 'Apps' }).waitFor({ timeout: LIVE_MS })
    expect(await page.getByRole('dialog').count()).toBe(0)
    await page.getByLabel('appKey starts with').fill(prefix)
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([second.appKey, first.appKey])
    const notReloaded = await markPage(page)
    // Each app's activity: its counts, its refusals, its last request and what it was answered.
    expect(await cell(page, first.appKey, 'Requests')).toBe('2')
    expect(await cell(page, first.appKey, 'Refusals')).toBe('1')
    expect(await cell(page, first.appKey, 'Texts')).toBe('1')
    expect(await cell(page, first.appKey, 'Last request')).toContain(
      '403 POST /v1/messages → 50013 invalid temp_id',
    )
    expect(await cell(page, second.appKey, 'Last request')).toContain('200 POST /v1/messages')
    expect(await cell(page, second.appKey, 'Refusals')).toBe('0')
    // Both made a request within the minute: active, and only while that is true.
    expect(await row(page, first.appKey).getByText('active', { exact: true }).count()).toBe(1)
    expect(await page.locator('#apps-summary').innerText()).toBe('2 apps · 3 requests · 1 refused')
    await ui.screenshot(page, 'operator')

    // Sorted by a column, and back: the most refused first, then by appKey.
    await page.getByRole('button', { name: 'Refusals' }).click()
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([first.appKey, second.appKey])
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Refusals')
    await page.getByRole('button', { name: 'appKey' }).click()
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([first.appKey, second.appKey])
    expect(await page.locator('th[aria-sort="ascending"]').innerText()).toContain('appKey')
    await page.getByRole('button', { name: 'appKey' }).click()
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([second.appKey, first.appKey])
    // Filtered: the apps with refusals only.
    await page.getByLabel('only apps with refusals').check()
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([first.appKey])
    expect(await page.locator('#apps-summary').innerText()).toBe('1 app of 2 · 2 requests · 1 refused')
    await page.getByLabel('only apps with refusals').uncheck()
    // Newest first again.
    await page.getByRole('button', { name: 'Last request' }).click()
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([second.appKey, first.appKey])

    // Two minutes later, nobody has called: no app is marked active any more, and "within the
    // last minute" lists none of them.
    await page.clock.fastForward(2 * 60_000)
    await expect.poll(() => page.locator('#apps .badge', { hasText: 'active' }).count()).toBe(0)
    expect(await cell(page, first.appKey, 'Last request')).toContain('2 min ago')
    await page.getByLabel('Last request within').selectOption({ label: 'the last minute' })
    await page.getByText('No app matches these filters.').waitFor({ timeout: LIVE_MS })
    await page.getByLabel('Last request within').selectOption({ label: 'any time' })
    // Back to real time (the sandbox's): the requests of a moment ago are a moment old again.
    await page.clock.setSystemTime(Date.now())

    // Live: the first app's next request moves it to the top, with what it was and its counts.
    await ui.api(first, 'POST', '/v1/messages', {
      mobile: '13800138061',
      temp_id: 2,
      temp_para: { order: 'OP3', days: '1' },
    })
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([first.appKey, second.appKey])
    await expect.poll(() => cell(page, first.appKey, 'Texts'), { timeout: LIVE_MS }).toBe('2')
    expect(await cell(page, first.appKey, 'Requests')).toBe('3')
    await expect
      .poll(() => cell(page, first.appKey, 'Last request'), { timeout: LIVE_MS })
      .toMatch(/^200 POST \/v1\/messages\s+just now/)
    expect(await row(page, first.appKey).getByText('active', { exact: true }).count()).toBe(1)
    expect(await notReloaded()).toBe(true)
    expect((page as unknown as { problems: string[] }).problems ?? []).toEqual([])
    await context.close()
  })

  it('opens an app in place, and Back returns to the list as it was left', async () => {
    const prefix = `opn${Date.now().toString(36)}`
    const first = newTenant(`${prefix}a`)
    const second = newTenant(`${prefix}b`)
    await ui.api(first, 'POST', '/v1/messages', {
      mobile: '13800138071',
      temp_id: 2,
      temp_para: { order: 'OP4', days: '1' },
    })
    await ui.api(second, 'POST', '/v1/messages', { mobile: '13800138072', temp_id: 99 })
    const context = await ui.browser.newContext({ viewport: { width: 1200, height: 800 } })
    const page = await context.newPage()
    await signInAsOperator(page)
    await page.getByLabel('appKey starts with').fill(prefix, { timeout: LIVE_MS })
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([second.appKey, first.appKey])
    await page.getByRole('button', { name: 'Texts' }).click()
    const notReloaded = await markPage(page)

    await page.getByRole('link', { name: first.appKey }).click()
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(first.appKey)
    expect(new URL(page.url()).searchParams.get('app')).toBe(first.appKey)
    await page.getByRole('link', { name: /13800138071/ }).waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#who').innerText()).toBe('operator')
    // What the operator does for an app is that app's: a template approved here is approved there.
    await page.getByRole('link', { name: /^Templates/ }).click()
    await page.getByRole('button', { name: 'Approve template 4' }).click({ timeout: LIVE_MS })
    await page.locator('tr[data-temp-id="4"]', { hasText: 'approved' }).waitFor({ timeout: LIVE_MS })

    // Back (twice: the view, then the app) is the list again, its filter and sort as they were.
    await page.goBack()
    await page.goBack()
    await page.getByRole('heading', { name: 'Apps' }).waitFor({ timeout: LIVE_MS })
    expect(new URL(page.url()).searchParams.get('app')).toBeNull()
    expect(await page.getByLabel('appKey starts with').inputValue()).toBe(prefix)
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Texts')
    await expect.poll(() => keys(page), { timeout: LIVE_MS }).toEqual([first.appKey, second.appKey])
    // …with what happened meanwhile: the request the operator made for the first app.
    await expect
      .poll(() => cell(page, first.appKey, 'Last request'), { timeout: LIVE_MS })
      .toContain('POST /_sandbox/sms/templates/4/review')

    // The other app's last request opens in its journal, opened, with its reason.
    await row(page, second.appKey)
      .getByRole('link', { name: /50013 invalid temp_id/ })
      .click()
    const entry = page.locator('details.request.highlight[open]')
    await entry.getByText('Why: the app has no template 99').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(second.appKey)
    // "All apps" in the header leads back as well.
    await page.getByRole('link', { name: 'All apps' }).click()
    await page.getByRole('heading', { name: 'Apps' }).waitFor({ timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
    expect((await ui.api(first, 'GET', '/v1/templates/4')).body.status).toBe(1)
    expect((await ui.api(second, 'GET', '/v1/templates/4')).body.status).toBe(0)
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
      .getByRole('alert')
      .getByText('No app nosuchapp000000000000001 in this sandbox: open another.')
      .waitFor({ timeout: LIVE_MS })
    await page.getByRole('heading', { name: 'Apps' }).waitFor({ timeout: LIVE_MS })
    expect(new URL(page.url()).searchParams.get('app')).toBeNull()
    await context.close()
  })
})

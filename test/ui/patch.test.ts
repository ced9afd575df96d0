import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, markPage, newTenant, uiHarness } from './browser.js'

// The views patch the DOM instead of drawing it anew (Preact): while a live event changes what a
// view shows, the browser keeps what the user was doing — the field being typed in, its text and
// caret, an opened <details>, the scroll — because the elements themselves stay. Each test marks an
// element (a property set on the DOM node) and finds the mark still there after the update: the same
// node, patched, not a copy drawn again.

const ui = uiHarness()

/** Marks the element the selector finds now, to show later that it is the same node. */
async function markNode(page: Page, selector: string, mark: string): Promise<() => Promise<boolean>> {
  await page
    .locator(selector)
    .first()
    .evaluate((el, m) => {
      ;(el as unknown as Record<string, boolean>)[m] = true
    }, mark)
  return () =>
    page
      .locator(selector)
      .first()
      .evaluate((el, m) => (el as unknown as Record<string, boolean>)[m] === true, mark)
}

/** The focused element's id, its value and its caret. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null
    return { id: el?.id, value: el?.value, caret: el?.selectionStart }
  })

describe('live updates patch the page', { timeout: BROWSER_TEST_MS }, () => {
  it('Requests: a filter being typed keeps its text, caret and focus, an opened entry stays open', async () => {
    const tenant = newTenant('uipatchreq')
    await ui.api(tenant, 'POST', '/v1/messages', { mobile: '13800138095', temp_id: 99 })
    const { page } = await ui.open(tenant, '#/requests')
    const refusal = page.locator('details.request', { hasText: '50013' })
    await refusal.locator('summary').click({ timeout: LIVE_MS })
    await refusal.getByText('Why: the app has no template 99').waitFor({ timeout: LIVE_MS })
    const sameEntry = await markNode(page, 'details.request.refused', 'marked')
    const sameList = await markNode(page, 'div.requests', 'marked')
    const notReloaded = await markPage(page)
    // Typed, not sent: the caret in the middle of what was typed.
    const path = page.getByLabel('path starts with')
    await path.fill('/v1/mess')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    const before = await focused(page)
    expect(before).toEqual({ id: 'filter-path', value: '/v1/mess', caret: 6 })
    const rows = await page.locator('details.request').count()

    // Live: another request of the app, journaled and drawn at the top.
    await ui.api(tenant, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'while typing' },
    })
    await page.locator('details.request', { hasText: 'POST /v3/push' }).waitFor({ timeout: LIVE_MS })
    expect(await page.locator('details.request').count()).toBe(rows + 1)
    expect(await focused(page)).toEqual(before)
    // Typing goes on where the caret was.
    await page.keyboard.type('s')
    await page.keyboard.press('End')
    await page.keyboard.type('ages')
    expect(await path.inputValue()).toBe('/v1/messsages')
    expect(await refusal.getAttribute('open')).toBe('')
    expect(await sameEntry()).toBe(true)
    expect(await sameList()).toBe(true)
    expect(await notReloaded()).toBe(true)
  })

  it('Phones: a reply being typed keeps its text and focus while a text arrives', async () => {
    const tenant = newTenant('uipatchsms')
    const mobile = '13800138096'
    const { page } = await ui.open(tenant, `#/phones/${mobile}`)
    await page.getByText(`No texts to ${mobile} yet`).waitFor({ timeout: LIVE_MS })
    const sameThread = await markNode(page, '#thread', 'marked')
    await page.getByLabel(`Reply from ${mobile}`).fill('on my way, I will be')
    const before = await focused(page)
    expect(before.id).toBe('reply-content')
    const sent = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile,
      temp_id: 2,
      temp_para: { order: 'PATCH', days: '1' },
    })
    await page.locator(`[data-msg-id="${sent.body.msg_id}"]`).waitFor({ timeout: LIVE_MS })
    expect(await focused(page)).toEqual(before)
    expect(await sameThread()).toBe(true)
    await page.keyboard.type(' there')
    await page.keyboard.press('Enter')
    await page
      .locator('.sms.outgoing', { hasText: 'on my way, I will be there' })
      .waitFor({ timeout: LIVE_MS })
  })

  it('Settings: a field being changed keeps what was typed while others follow the app', async () => {
    const tenant = newTenant('uipatchset')
    const { page } = await ui.open(tenant, '#/settings')
    const industry = page.getByLabel('industry')
    await industry.fill('42', { timeout: LIVE_MS })
    // Another client changes two balances: the one being typed in stays as typed, the other follows.
    await ui.api(tenant, 'PATCH', '/_sandbox/app', { balances: { industry: 3, market: 9 } })
    await expect.poll(() => page.locator('#balance-market').inputValue(), { timeout: LIVE_MS }).toBe('9')
    expect(await focused(page)).toEqual({ id: 'balance-industry', value: '42', caret: null })
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved: balances').waitFor({ timeout: LIVE_MS })
    expect((await ui.api(tenant, 'GET', '/_sandbox/app')).body.balances).toMatchObject({
      industry: 42,
      market: 9,
    })
  })

  it("the operator's list: the focused control and the rows stay while apps change", async () => {
    const prefix = `patch${Date.now().toString(36)}`
    const one = newTenant(`${prefix}a`)
    await ui.api(one, 'GET', '/_sandbox/app')
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${ui.url}/_sandbox/ui/`)
    await ui.signIn(page, 'operator')
    await page.getByLabel('appKey starts with').fill(prefix, { timeout: LIVE_MS })
    const row = `#apps tr[data-app-key="${one.appKey}"]`
    await page.locator(row).waitFor({ timeout: LIVE_MS })
    const sameRow = await markNode(page, row, 'marked')
    await page.getByRole('button', { name: 'Requests' }).focus()
    const two = newTenant(`${prefix}b`)
    await ui.api(two, 'POST', '/v1/messages', { mobile: '13800138097', temp_id: 99 })
    await page.locator(`#apps tr[data-app-key="${two.appKey}"]`).waitFor({ timeout: LIVE_MS })
    await ui.api(one, 'POST', '/v1/messages', { mobile: '13800138097', temp_id: 99 })
    await expect
      .poll(() => page.locator(row).locator('td[data-label="Refusals"]').innerText(), { timeout: LIVE_MS })
      .toBe('1')
    expect(await sameRow()).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Requests')
    await context.close()
  })
})

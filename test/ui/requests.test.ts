import { describe, expect, it } from 'vitest'
import { BROWSER_TEST_MS, LIVE_MS, markPage, newTenant, uiHarness } from './browser.js'

// The Requests view (the request journal, GET /_sandbox/requests): a refused call with its reason,
// live, filtered, linked to the texts and pushes it made; and deep links naming the app, the view
// and the filters, as a CI log prints them.

const ui = uiHarness()

describe('the Requests view', { timeout: BROWSER_TEST_MS }, () => {
  it('shows a refusal with its reason, live, and filters by outcome and code', async () => {
    const tenant = newTenant('uireq')
    const ok = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138050',
      temp_id: 2,
      temp_para: { order: 'RQ', days: '1' },
    })
    expect(ok.status).toBe(200)
    const { page } = await ui.open(tenant, '#/requests')
    const rows = page.locator('details.request')
    await rows.first().waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)

    const refused = await ui.api(tenant, 'POST', '/v1/messages', { mobile: '13800138050', temp_id: 99 })
    expect(refused.body).toEqual({ error: { code: 50013, message: 'invalid temp_id' } })
    const row = page.locator('details.request.refused', { hasText: '50013' })
    await row.waitFor({ timeout: LIVE_MS })
    expect(await rows.first().innerText()).toContain('POST /v1/messages → 50013 invalid temp_id')
    await row.locator('summary').click()
    await row.getByText('Why: the app has no template 99').waitFor({ timeout: LIVE_MS })
    expect(await row.locator('pre.body').first().innerText()).toContain('"temp_id": 99')
    expect(await row.locator('pre.body').nth(1).innerText()).toContain('"code": 50013')
    await ui.screenshot(page, 'requests')
    expect(await notReloaded()).toBe(true)

    // 4xx only: the refusal, not the text that went out.
    await page.getByLabel('Outcome').selectOption('4xx')
    await expect.poll(() => page.url(), { timeout: LIVE_MS }).toContain('outcome=4xx')
    await page
      .locator('details.request:not(.refused)')
      .first()
      .waitFor({ state: 'detached', timeout: LIVE_MS })
    expect(await rows.count()).toBeGreaterThanOrEqual(1)
    for (const text of await rows.allInnerTexts()) expect(text).toMatch(/^4\d\d/)
    // 2xx and code 50013: nothing matches.
    await page.getByLabel('Outcome').selectOption('2xx')
    await page.getByLabel('code', { exact: true }).fill('50013')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No request matches.').waitFor({ timeout: LIVE_MS })
    expect(new URL(page.url()).hash).toBe('#/requests?outcome=2xx&code=50013')
  })

  it("shows the production advisor's warning on an accepted call", async () => {
    const tenant = newTenant('uireqwarn')
    const pushed = await ui.api(tenant, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { android: { alert: 'hi' } },
      options: { third_party_channel: { xiaomi: { distribution: 'ospush' } } },
    })
    expect(pushed.status).toBe(200)
    const { page } = await ui.open(tenant, '#/requests')
    const row = page.locator('details.request', { hasText: 'POST /v3/push' })
    await row.waitFor({ timeout: LIVE_MS })
    expect(await row.locator('summary').innerText()).toContain('1 warning')
    await row.locator('summary').click()
    const warning = row.locator('li.warning')
    await warning.waitFor({ timeout: LIVE_MS })
    expect(await warning.innerText()).toContain('xiaomi-channel-id')
    expect(await warning.innerText()).toContain(
      'source: https://docs.jiguang.cn/jpush/client/Android/android_channel_id',
    )
    // A broadcast reached several devices: the link to its first says there are others.
    const reached = await ui.api(tenant, 'GET', `/_sandbox/push/messages?msg_id=${pushed.body.msg_id}`)
    expect(reached.body.messages.length).toBeGreaterThan(1)
    await row.getByText(`and ${reached.body.messages.length - 1} other device`).waitFor({ timeout: LIVE_MS })
  })

  it('shows the apns-environment warning of a push no targeted iOS build can take', async () => {
    const tenant = newTenant('uireqapns')
    const dev = await ui.api(tenant, 'POST', '/_sandbox/push/devices', {
      platform: 'ios',
      apns_environment: 'development',
    })
    const pushed = await ui.api(tenant, 'POST', '/v3/push', {
      platform: ['ios'],
      audience: { registration_id: [dev.body.registration_id] },
      notification: { alert: 'hi' },
    })
    expect(pushed.status).toBe(200)
    const { page } = await ui.open(tenant, '#/requests')
    const row = page.locator('details.request', { hasText: 'POST /v3/push' })
    await row.waitFor({ timeout: LIVE_MS })
    expect(await row.locator('summary').innerText()).toContain('1 warning')
    await row.locator('summary').click()
    const warning = row.locator('li.warning')
    await warning.waitFor({ timeout: LIVE_MS })
    expect(await warning.innerText()).toContain('apns-environment')
    expect(await warning.innerText()).toContain('development builds')
  })

  it('a text links to the call that sent it, and the call back to the text', async () => {
    const tenant = newTenant('uireqlink')
    const sent = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138051',
      temp_id: 2,
      temp_para: { order: 'LINK', days: '1' },
    })
    const { page } = await ui.open(tenant, `#/phones/13800138051`)
    const bubble = page.locator(`[data-msg-id="${sent.body.msg_id}"]`)
    await bubble.getByRole('link', { name: 'the call that sent it' }).click({ timeout: LIVE_MS })
    expect(new URL(page.url()).hash).toBe(`#/requests?msg_id=${sent.body.msg_id}`)
    // The one call that sent it, opened: what it was sent, and the way back to the text.
    const row = page.locator('details.request[open]', { hasText: 'POST /v1/messages' })
    await row.waitFor({ timeout: LIVE_MS })
    expect(await page.locator('details.request').count()).toBe(1)
    expect(await row.locator('pre.body').first().innerText()).toContain('"mobile": "13800138051"')
    await row.getByRole('link', { name: 'the text to 13800138051' }).click()
    await page.locator(`.sms.highlight[data-msg-id="${sent.body.msg_id}"]`).waitFor({ timeout: LIVE_MS })
  })

  it('#/requests/<seq> shows that entry even when the list does not hold it, and says when it is gone', async () => {
    const tenant = newTenant('uireqseq')
    const refused = await ui.api(tenant, 'POST', '/v1/messages', { mobile: '13800138053', temp_id: 99 })
    expect(refused.status).toBe(403)
    const { body } = await ui.api(tenant, 'GET', '/_sandbox/requests?path=/v1/messages')
    const seq = body.requests[0].seq
    // A link to it with filters it does not match (as an entry older than the newest 300 is not read).
    const { page } = await ui.open(tenant, `#/requests/${seq}?path=/v3`)
    const entry = page.locator(`.alone details.request.highlight[open][data-seq="${seq}"]`)
    await entry.getByText('Why: the app has no template 99').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#request-alone').innerText()).toContain(
      `Request ${seq} is older than the list`,
    )
    // A seq the journal does not hold: said, not a silent list.
    await page.goto(`${page.url().split('#')[0]}#/requests/99999`)
    await page
      .locator('#request-alone', { hasText: 'Request 99999 is not in the journal' })
      .waitFor({ timeout: LIVE_MS })
  })
})

describe('deep links: the address names the app, the view and the filters', {
  timeout: BROWSER_TEST_MS,
}, () => {
  it("the operator's link opens that app's view with its filters", async () => {
    const tenant = newTenant('uideep')
    await ui.api(tenant, 'POST', '/v1/messages', { mobile: '13800138052', temp_id: 99 })
    const { page } = await ui.open('operator', '#/requests?code=50013', { app: tenant.appKey })
    expect(await page.locator('#app-key').innerText()).toBe(tenant.appKey)
    await page.locator('nav a[data-view="requests"][aria-current="page"]').waitFor({ timeout: LIVE_MS })
    expect(await page.getByLabel('code', { exact: true }).inputValue()).toBe('50013')
    const row = page.locator('details.request', { hasText: '50013' })
    await row.waitFor({ timeout: LIVE_MS })
    expect(await page.locator('details.request').count()).toBe(1)
    await row.locator('summary').click()
    await row.getByText('Why: the app has no template 99').waitFor({ timeout: LIVE_MS })
  })

  it("an app's credentials open a link to that app, and say so for another's", async () => {
    const mine = newTenant('uimine')
    const other = newTenant('uiother')
    await ui.api(other, 'GET', '/_sandbox/app')
    const { page, context } = await ui.open(mine, '#/requests', { app: mine.appKey })
    await page.locator('nav a[data-view="requests"][aria-current="page"]').waitFor({ timeout: LIVE_MS })

    const second = await context.newPage()
    await second.goto(`${ui.url}/_sandbox/ui/?app=${other.appKey}#/clock`)
    // A new tab has no session: it asks for the credentials of the app the link names.
    const form = second.locator('#sign-in-form')
    await form.waitFor({ timeout: LIVE_MS })
    expect(await form.getByLabel('appKey', { exact: true }).inputValue()).toBe(other.appKey)
    await second.getByText(`This link opens app ${other.appKey}`).waitFor({ timeout: LIVE_MS })

    // In the signed-in tab, a link to another app says so, and offers both ways out.
    await page.goto(`${ui.url}/_sandbox/ui/?app=${other.appKey}#/clock`)
    await page
      .getByText(`The link opens app ${other.appKey}, and this tab is signed in as app ${mine.appKey}`)
      .waitFor({ timeout: LIVE_MS })
    await page.getByRole('button', { name: `Show ${mine.appKey} instead` }).click()
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(new URL(page.url()).searchParams.get('app')).toBe(mine.appKey)
    await page.getByRole('heading', { name: 'Clock' }).waitFor({ timeout: LIVE_MS })
  })
})

import { describe, expect, it } from 'vitest'
import { formatLocal } from '../../src/time.js'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { BROWSER_TEST_MS, LIVE_MS, markPage, newTenant, uiHarness } from './browser.js'

// Every view live (issue 21): a change made through the vendor's API (or the control plane's)
// while its view is open shows without a reload, and so do the tab badges. The page re-reads what
// an event's type says it changed (src/ui/public/data.js, EVENT_TOPICS).

const ui = uiHarness()
const badge = (page: import('playwright-core').Page, view: string) =>
  page.locator(`nav a[data-view="${view}"] .count`).innerText()

describe('every view, live', { timeout: BROWSER_TEST_MS }, () => {
  it('templates and signatures made through /v1 appear in their view, and its badge counts them', async () => {
    const tenant = newTenant('uilivetpl')
    const { page } = await ui.open(tenant, '#/templates')
    await page.locator('tr[data-temp-id="4"]').waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    const before = Number((await badge(page, 'templates')) || 0)

    const made = await ui.api(tenant, 'POST', '/v1/templates', {
      template: '取件码{{code}}',
      type: 1,
      ttl: 60,
    })
    expect(made.status).toBe(200)
    const row = page.locator(`tr[data-temp-id="${made.body.temp_id}"]`)
    await row.waitFor({ timeout: LIVE_MS })
    expect(await row.innerText()).toContain('under review')
    await expect.poll(() => badge(page, 'templates'), { timeout: LIVE_MS }).toBe(String(before + 1))

    const sign = await postForm(ui.app, '/v1/sign', pythonForm({ sign: '实时签名' }), tenant.auth)
    expect(sign.status).toBe(200)
    await page
      .locator(`tr[data-sign-id="${sign.body.sign_id}"]`, { hasText: '实时签名' })
      .waitFor({ timeout: LIVE_MS })
    await expect.poll(() => badge(page, 'templates'), { timeout: LIVE_MS }).toBe(String(before + 2))

    // Taken back through the API: gone from the view.
    expect((await ui.api(tenant, 'DELETE', `/v1/templates/${made.body.temp_id}`)).status).toBe(200)
    await row.waitFor({ state: 'detached', timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
  })

  it('SMS and push schedules made through the APIs appear in Scheduled, its badge counting the pending', async () => {
    const tenant = newTenant('uilivesch')
    const now = (await ui.api(tenant, 'GET', '/_sandbox/clock')).body.now
    const { page } = await ui.open(tenant, '#/scheduled')
    await page.getByText('No scheduled SMS.').waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)

    const task = await ui.api(tenant, 'POST', '/v1/schedule', {
      send_time: formatLocal(now + 30 * 60_000, 'Asia/Shanghai'),
      mobile: '13800138080',
      temp_id: 2,
      temp_para: { order: 'LIVE', days: '1' },
    })
    expect(task.status).toBe(200)
    const card = page.locator(`[data-schedule-id="${task.body.schedule_id}"]`)
    await card.getByText('pending', { exact: true }).waitFor({ timeout: LIVE_MS })
    await expect.poll(() => badge(page, 'scheduled'), { timeout: LIVE_MS }).toBe('1')

    const push = await ui.api(tenant, 'POST', '/v3/schedules', {
      name: 'live_reminder',
      enabled: true,
      trigger: { single: { time: formatLocal(now + 60 * 60_000, 'Asia/Shanghai') } },
      push: { platform: 'all', audience: 'all', notification: { alert: 'soon' } },
    })
    expect(push.status).toBe(200)
    await page
      .locator(`[data-schedule-id="${push.body.schedule_id}"]`, { hasText: 'live_reminder' })
      .waitFor({
        timeout: LIVE_MS,
      })
    await expect.poll(() => badge(page, 'scheduled'), { timeout: LIVE_MS }).toBe('2')

    // Deleted through /v1: its state shows it, and the badge no longer counts it.
    expect((await ui.api(tenant, 'DELETE', `/v1/schedule/${task.body.schedule_id}`)).status).toBe(200)
    await card.getByText('deleted', { exact: true }).waitFor({ timeout: LIVE_MS })
    await expect.poll(() => badge(page, 'scheduled'), { timeout: LIVE_MS }).toBe('1')
    expect(await notReloaded()).toBe(true)
  })

  it("a device's tags and alias set through /v3/devices show on it", async () => {
    const tenant = newTenant('uilivedev')
    const rid = '1a0018970a8b0fd6c0e'
    const { page } = await ui.open(tenant, `#/devices/${rid}`)
    const facts = page.locator('dl.facts')
    await facts.waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    const set = await ui.api(tenant, 'POST', `/v3/devices/${rid}`, { tags: { add: ['vip'] }, alias: 'alice' })
    expect(set.status).toBe(200)
    await facts.getByText('vip').waitFor({ timeout: LIVE_MS })
    await facts.getByText('alice').waitFor({ timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
  })

  it('faults armed and settings changed through /_sandbox show in Faults and settings', async () => {
    const tenant = newTenant('uilivefault')
    const { page } = await ui.open(tenant, '#/settings')
    await page.getByRole('button', { name: 'Save settings' }).waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    const armed = await ui.api(tenant, 'POST', '/_sandbox/faults', { path: '/v3/push', code: 1011 })
    expect(armed.status).toBe(200)
    await page.locator('#armed-faults', { hasText: '/v3/push → 1011' }).waitFor({ timeout: LIVE_MS })
    await expect.poll(() => badge(page, 'settings'), { timeout: LIVE_MS }).toBe('1')
    await ui.api(tenant, 'PATCH', '/_sandbox/app', { balances: { industry: 3 } })
    await expect.poll(() => page.getByLabel('industry').inputValue(), { timeout: LIVE_MS }).toBe('3')
    await ui.api(tenant, 'DELETE', '/_sandbox/faults')
    await expect.poll(() => badge(page, 'settings'), { timeout: LIVE_MS }).toBe('')
    expect(await notReloaded()).toBe(true)
  })

  it('the clock moved through the API shows, its offset in days and hours', async () => {
    const tenant = newTenant('uiliveclock')
    const { page } = await ui.open(tenant, '#/clock')
    await page.getByText('real time', { exact: false }).first().waitFor({ timeout: LIVE_MS })
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 86_400_000 + 3 * 3_600_000 + 5 * 60_000 })
    await page.getByText('1 day 3 h 5 min ahead of real time').waitFor({ timeout: LIVE_MS })
  })
})

describe('a code in its phone', { timeout: BROWSER_TEST_MS }, () => {
  it('shows whether it was verified, or expired, as it happens', async () => {
    const tenant = newTenant('uilivecode')
    const mobile = '13800138090'
    const { page } = await ui.open(tenant, `#/phones/${mobile}`)
    await page.getByText(`No texts to ${mobile} yet`).waitFor({ timeout: LIVE_MS })
    const first = await ui.api(tenant, 'POST', '/v1/codes', { mobile, temp_id: 1 })
    const bubble = page.locator(`[data-msg-id="${first.body.msg_id}"]`)
    await bubble.getByText('not verified yet').waitFor({ timeout: LIVE_MS })
    const code = (await ui.api(tenant, 'GET', `/_sandbox/sms/codes/latest?msg_id=${first.body.msg_id}`)).body
      .code
    const valid = await ui.api(tenant, 'POST', `/v1/codes/${first.body.msg_id}/valid`, { code })
    expect(valid.body.is_valid).toBe(true)
    await bubble.locator('.code-state', { hasText: 'verified' }).waitFor({ timeout: LIVE_MS })

    const second = await ui.api(tenant, 'POST', '/v1/codes', { mobile, temp_id: 1 })
    const next = page.locator(`[data-msg-id="${second.body.msg_id}"]`)
    await next.getByText('not verified yet').waitFor({ timeout: LIVE_MS })
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 86_400_000 })
    await next.locator('.code-state', { hasText: 'expired' }).waitFor({ timeout: LIVE_MS })
    expect(await bubble.locator('.code-state').innerText()).toBe('verified')
  })
})

describe('every view, live: the events of what an app configures', { timeout: BROWSER_TEST_MS }, () => {
  it('a device taken offline through the control plane, and tagged through /v3/tags, shows it (device.changed)', async () => {
    const tenant = newTenant('uilivetag')
    const rid = '1a0018970a8b0fd6c0e'
    const { page } = await ui.open(tenant, `#/devices/${rid}`)
    const facts = page.locator('dl.facts')
    await page.getByRole('button', { name: 'Take offline' }).waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    const patched = await ui.api(tenant, 'PATCH', `/_sandbox/push/devices/${rid}`, { online: false })
    expect(patched.status).toBe(200)
    await page.getByRole('button', { name: 'Bring online' }).waitFor({ timeout: LIVE_MS })
    expect(await facts.innerText()).toMatch(/state\s+offline/)
    const tagged = await ui.api(tenant, 'POST', '/v3/tags/gold', { registration_ids: { add: [rid] } })
    expect(tagged.status).toBe(200)
    await facts.getByText('gold').waitFor({ timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
  })

  it('a fault used by a request counts down in Faults and settings (fault.changed)', async () => {
    const tenant = newTenant('uilivefused')
    await ui.api(tenant, 'POST', '/_sandbox/faults', { path: '/v1/messages', code: 50019, times: 2 })
    const { page } = await ui.open(tenant, '#/settings')
    const armed = page.locator('#armed-faults')
    await armed.getByText('2 left', { exact: false }).waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    const failed = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'F', days: '1' },
    })
    expect(failed.body.error.code).toBe(50019)
    await armed.getByText('1 left', { exact: false }).waitFor({ timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
  })

  it('a signature deleted and a task moved through /v1 show (sign.changed, schedule.changed)', async () => {
    const tenant = newTenant('uilivesign')
    const sign = await postForm(ui.app, '/v1/sign', pythonForm({ sign: '将删签名' }), tenant.auth)
    const now = (await ui.api(tenant, 'GET', '/_sandbox/clock')).body.now
    const task = await ui.api(tenant, 'POST', '/v1/schedule', {
      send_time: formatLocal(now + 30 * 60_000, 'Asia/Shanghai'),
      mobile: '13800138081',
      temp_id: 2,
      temp_para: { order: 'MOVE', days: '1' },
    })
    const { page } = await ui.open(tenant, '#/templates')
    const row = page.locator(`tr[data-sign-id="${sign.body.sign_id}"]`)
    await row.waitFor({ timeout: LIVE_MS })
    const notReloaded = await markPage(page)
    expect((await ui.api(tenant, 'DELETE', `/v1/sign/${sign.body.sign_id}`)).status).toBe(200)
    await row.waitFor({ state: 'detached', timeout: LIVE_MS })

    await page.getByRole('link', { name: /^Scheduled/ }).click()
    const card = page.locator(`[data-schedule-id="${task.body.schedule_id}"]`)
    await card.waitFor({ timeout: LIVE_MS })
    const later = formatLocal(now + 90 * 60_000, 'Asia/Shanghai')
    const moved = await ui.api(tenant, 'PUT', `/v1/schedule/${task.body.schedule_id}`, {
      send_time: later,
      mobile: '13800138081',
      temp_id: 2,
      temp_para: { order: 'MOVE', days: '2' },
    })
    expect(moved.status).toBe(200)
    await card.getByText(`send_time ${later}`, { exact: false }).waitFor({ timeout: LIVE_MS })
    expect(await notReloaded()).toBe(true)
  })
})

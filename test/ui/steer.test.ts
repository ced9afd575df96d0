import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatLocal } from '../../src/time.js'
import { startReceiver } from '../scheduler/receiver.js'
import { BROWSER_TEST_MS, LIVE_MS, newTenant, uiHarness } from './browser.js'

// Steering the sandbox by hand: what the UI does is what the API then says (issue 13).

const ui = uiHarness()

describe('the web UI, steering', { timeout: BROWSER_TEST_MS }, () => {
  it('a template approved in the UI is approved through the API', async () => {
    const tenant = newTenant('uitpl')
    const { page } = await ui.open(tenant, '#/templates')
    expect((await ui.api(tenant, 'GET', '/v1/templates/4')).body.status).toBe(0)
    await page.getByRole('button', { name: 'Approve template 4' }).click({ timeout: LIVE_MS })
    await page.locator('tr[data-temp-id="4"]', { hasText: 'approved' }).waitFor({ timeout: LIVE_MS })
    expect((await ui.api(tenant, 'GET', '/v1/templates/4')).body.status).toBe(1)
    // Rejected with a reason, in one click once the reason is typed.
    await page.getByLabel('Reason for rejecting template 3').fill('wrong unsubscribe text')
    await page.getByRole('button', { name: 'Reject template 3' }).click()
    await page.locator('tr[data-temp-id="3"]', { hasText: 'refuse_reason: wrong unsubscribe text' }).waitFor({
      timeout: LIVE_MS,
    })
    const listed = (await ui.api(tenant, 'GET', '/_sandbox/sms/templates')).body.templates[2]
    expect(listed).toMatchObject({ temp_id: 3, status: 2, refuse_reason: 'wrong unsubscribe text' })
    await ui.screenshot(page, 'templates')
  })

  it("a message's delivery report gets the status chosen in the UI", async () => {
    const tenant = newTenant('uireport')
    const { page } = await ui.open(tenant, '#/phones/13800138030')
    const sent = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138030',
      temp_id: 2,
      temp_para: { order: 'REP', days: '1' },
    })
    const bubble = page.locator(`[data-msg-id="${sent.body.msg_id}"]`)
    await bubble.getByText('No delivery report yet: choose its status').click({ timeout: LIVE_MS })
    await bubble.getByLabel('Its status').selectOption('4003')
    await bubble.getByRole('button', { name: 'Set report' }).click()
    await bubble.getByText('Report due: handset off or suspended (4003)').waitFor({ timeout: LIVE_MS })
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 2000 })
    await bubble.getByText('Delivery report: handset off or suspended (4003)').waitFor({ timeout: LIVE_MS })
    const pulled = await ui.api(tenant, 'GET', '/v1/report')
    expect(pulled.body).toEqual([expect.objectContaining({ msgId: sent.body.msg_id, status: 4003 })])
  })

  it('moving the clock in the UI fires a due schedule, and its message appears', async () => {
    const tenant = newTenant('uiclock')
    const now = (await ui.api(tenant, 'GET', '/_sandbox/clock')).body.now
    const task = await ui.api(tenant, 'POST', '/v1/schedule', {
      send_time: formatLocal(now + 30 * 60_000, 'Asia/Shanghai'),
      mobile: '13800138010',
      temp_id: 2,
      temp_para: { order: 'CLOCK', days: '1' },
    })
    expect(task.status).toBe(200)
    const { page } = await ui.open(tenant, '#/clock')
    await page.getByRole('button', { name: 'Move the clock forward 1 h' }).click({ timeout: LIVE_MS })
    const fell = page.locator('.events')
    await fell.locator('li[data-type="schedule.fired"]').waitFor({ timeout: LIVE_MS })
    expect(await fell.innerText()).toContain(`Schedule ${task.body.schedule_id} fired (1 sent, 0 refused)`)
    expect(await fell.locator('li[data-type="sms.sent"]').innerText()).toContain('SMS to 13800138010')
    await ui.screenshot(page, 'clock')
    expect((await ui.api(tenant, 'GET', '/_sandbox/clock')).body.now).toBe(now + 3_600_000)

    // The message, in its phone's view, reached from what fell due.
    await fell.getByRole('link', { name: '13800138010' }).first().click()
    await page.locator('.sms.incoming', { hasText: '您的订单CLOCK已发货' }).waitFor({ timeout: LIVE_MS })
    // And the task, in Scheduled, links to it.
    await page.goto(`${ui.url}/_sandbox/ui/#/scheduled`)
    const card = page.locator(`[data-schedule-id="${task.body.schedule_id}"]`)
    await card.getByText('sent', { exact: true }).waitFor({ timeout: LIVE_MS })
    await card.getByRole('link', { name: '13800138010' }).click()
    await page
      .locator('.sms.incoming.highlight', { hasText: '您的订单CLOCK已发货' })
      .waitFor({ timeout: LIVE_MS })
  })

  it('reset empties the views, after a confirmation', async () => {
    const tenant = newTenant('uireset')
    const sent = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138020',
      temp_id: 2,
      temp_para: { order: 'R', days: '1' },
    })
    await ui.api(tenant, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'before the reset' },
    })
    const { page } = await ui.open(tenant, '#/phones')
    await page.getByRole('link', { name: /13800138020/ }).waitFor({ timeout: LIVE_MS })
    await page.goto(`${ui.url}/_sandbox/ui/#/settings`)
    await page.getByRole('button', { name: 'Reset app…' }).click({ timeout: LIVE_MS })
    // Cancelling changes nothing.
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    expect(
      (await ui.api(tenant, 'GET', `/_sandbox/sms/messages?msg_id=${sent.body.msg_id}`)).body.messages,
    ).toHaveLength(1)
    await page.getByRole('button', { name: 'Reset app…' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Reset app' }).click()
    await page.getByText(`App ${tenant.appKey} reset`).waitFor({ timeout: LIVE_MS })
    expect((await ui.api(tenant, 'GET', '/_sandbox/sms/messages')).body.messages).toEqual([])

    await page.getByRole('link', { name: /^Phones/ }).click()
    await page.getByText('No SMS sent yet.').waitFor({ timeout: LIVE_MS })
    await page.getByRole('link', { name: /^Devices/ }).click()
    await page.getByRole('link', { name: /1a0018970a8b0fd6c0e/ }).click()
    await page.getByText('Nothing received yet').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('.push').count()).toBe(0)
  })

  it('a callback_url set in the UI gets the callbacks; each attempt and retry shows in Callbacks', async () => {
    const tenant = newTenant('uihook')
    const receiver = await startReceiver()
    const { page } = await ui.open(tenant, '#/settings')
    await page.getByLabel(/^callback_url/).fill(receiver.url, { timeout: LIVE_MS })
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved: callback_url').waitFor({ timeout: LIVE_MS })
    expect(receiver.checks).toHaveLength(1) // the vendor's echostr check

    receiver.answer('fail')
    const sent = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138040',
      temp_id: 2,
      temp_para: { order: 'HOOK', days: '1' },
    })
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 2000 }) // the report, called back
    await page.getByRole('link', { name: /^Callbacks/ }).click()
    const card = page.locator('[data-callback-id]', { hasText: 'SMS_REPORT' })
    await card.getByText('HTTP 500').first().waitFor({ timeout: LIVE_MS })
    expect(await card.innerText()).toContain('next attempt')
    receiver.answer('ok')
    await ui.api(tenant, 'POST', '/_sandbox/clock', { advance_ms: 3 * 60_000 }) // the first retry
    await card.getByText('HTTP 200').first().waitFor({ timeout: LIVE_MS })
    expect(await card.locator('.badge').innerText()).toBe('delivered')
    await card.getByText('Payload (data)').click()
    expect(await card.locator('pre').innerText()).toContain(sent.body.msg_id)
    expect(receiver.received).toHaveLength(2)
  })

  it('works from the keyboard: "/" searches, Tab reaches every control, Enter acts', async () => {
    const tenant = newTenant('uikeys')
    const { page } = await ui.open(tenant, '#/templates')
    await page.locator('tr[data-temp-id="4"]').waitFor({ timeout: LIVE_MS })
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search')
    await page.keyboard.type('appointment')
    await page.locator('tr[data-temp-id="1"]').waitFor({ state: 'detached', timeout: LIVE_MS })
    // Tab from the search box until "Approve template 4" has the focus, then Enter.
    let reached = false
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(
        () => document.activeElement?.getAttribute('aria-label') === 'Approve template 4',
      )
    }
    expect(reached).toBe(true)
    await page.keyboard.press('Enter')
    await page.locator('tr[data-temp-id="4"]', { hasText: 'approved' }).waitFor({ timeout: LIVE_MS })
    expect((await ui.api(tenant, 'GET', '/v1/templates/4')).body.status).toBe(1)
  })

  it('arms a fault and changes a setting, as the API then shows', async () => {
    const tenant = newTenant('uifault')
    const { page } = await ui.open(tenant, '#/settings')
    await page.getByText('Arm a fault').click({ timeout: LIVE_MS })
    await page.getByLabel('path').fill('/v1/messages')
    await page.getByLabel('code (the vendor error)').fill('50019')
    await page.getByRole('button', { name: 'Arm fault' }).click()
    await page.locator('#armed-faults', { hasText: '/v1/messages → 50019' }).waitFor({ timeout: LIVE_MS })
    const failed = await ui.api(tenant, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'F', days: '1' },
    })
    expect(failed.body).toEqual({ error: { code: 50019, message: 'server error' } })
    // The used fault leaves the list (fault.changed): the view has drawn what the request changed
    // before anything is typed. A number input loses its selection to a re-render, so a fill racing
    // one would append (10000 + 7) instead of replacing.
    await page
      .locator('#armed-faults', { hasText: '/v1/messages → 50019' })
      .waitFor({ state: 'detached', timeout: LIVE_MS })

    await page.getByLabel('industry').fill('7')
    await page.getByRole('checkbox', { name: /blacklisted/ }).check({ timeout: LIVE_MS })
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Saved: balances, blacklisted').waitFor({ timeout: LIVE_MS })
    const app = (await ui.api(tenant, 'GET', '/_sandbox/app')).body
    expect(app).toMatchObject({ blacklisted: true, balances: { industry: 7 } })
    // A value the app refuses is shown with the control plane's reason.
    await page.getByLabel('push', { exact: true }).fill('0')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.locator('.toast.error', { hasText: 'settings.rate_limits.push' }).waitFor({ timeout: LIVE_MS })
  })
})

describe('the web UI, an app as a document', { timeout: BROWSER_TEST_MS }, () => {
  it('exports the app through its button, and imports a document through the other', async () => {
    const from = newTenant('uiexport')
    const sent = await ui.api(from, 'POST', '/v1/messages', {
      mobile: '13800138070',
      temp_id: 2,
      temp_para: { order: 'DOC', days: '1' },
    })
    const { page } = await ui.open(from, '#/settings')
    const download = page.waitForEvent('download', { timeout: LIVE_MS })
    await page.getByRole('button', { name: 'Export app' }).click({ timeout: LIVE_MS })
    const file = await download
    expect(file.suggestedFilename()).toBe(`${from.appKey}.json`)
    const path = join(mkdtempSync(join(tmpdir(), 'ui-doc-')), file.suggestedFilename())
    await file.saveAs(path)
    const doc = JSON.parse(readFileSync(path, 'utf8'))
    expect(doc).toMatchObject({ format: 'jiguang-sandbox/app', version: 1, app_key: from.appKey })

    const into = newTenant('uiimport')
    const { page: other } = await ui.open(into, '#/settings')
    const importIt = async () => {
      await other.getByLabel('Document to import').setInputFiles(path, { timeout: LIVE_MS })
      await other.getByRole('button', { name: 'Import…' }).click()
      await other.getByRole('dialog').getByRole('button', { name: 'Import' }).click()
    }
    // The document's ids are still the first app's in this sandbox: refused, naming one, nothing changes.
    await importIt()
    await other.locator('#import-result.error', { hasText: '(90056)' }).waitFor({ timeout: LIVE_MS })
    expect((await ui.api(into, 'GET', '/_sandbox/sms/messages')).body.messages).toEqual([])
    // Once that app is gone, the document goes in, and the page shows what it holds.
    await ui.api(from, 'DELETE', '/_sandbox/app')
    await importIt()
    await other
      .locator('#import-result.ok', { hasText: `Imported ${from.appKey}.json into ${into.appKey}` })
      .waitFor({
        timeout: LIVE_MS,
      })
    await other.getByRole('link', { name: /^Phones/ }).click()
    await other.getByRole('link', { name: /13800138070/ }).click()
    await other.locator(`[data-msg-id="${sent.body.msg_id}"]`).waitFor({ timeout: LIVE_MS })
  })
})

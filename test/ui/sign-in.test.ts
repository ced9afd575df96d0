import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { testConfig } from '../../src/config.js'
import { BROWSER_TEST_MS, LIVE_MS, newTenant, type Tenant, uiHarness } from './browser.js'

// Getting in: the page's own sign-in form (its hints, its errors, signing out), `/` for a browser,
// switching apps; and what the page is made of (small, from this server only, every control
// labelled, readable on a narrow window).

const ui = uiHarness()

describe('signing in to the web UI', { timeout: BROWSER_TEST_MS }, () => {
  it('a browser without credentials gets the sign-in page, with the hints a newcomer needs; no prompt', async () => {
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    const res = await page.goto(`${ui.url}/`)
    expect(res?.status()).toBe(200)
    expect(new URL(page.url()).pathname).toBe('/_sandbox/ui/')
    const form = page.locator('#sign-in-form')
    await form.waitFor({ timeout: LIVE_MS })
    const hints = await page.locator('.hints').innerText()
    expect(hints).toContain('7d431e42dfa6a6d693ac2d04')
    expect(hints).toContain('5e987ac6d2e04d95a9d8f0d1')
    expect(hints).toContain('Any well-formed appKey (24 letters or digits)')
    expect(hints).toContain('SANDBOX_OPERATOR')
    await ui.screenshot(page, 'sign-in')
    // One click fills the default app's credentials; signing in opens it.
    await page.getByRole('button', { name: 'Use the default app' }).click()
    await form.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe('7d431e42dfa6a6d693ac2d04')
    // Never in the URL: only the app's name is.
    expect(page.url()).not.toContain('5e987ac6d2e04d95a9d8f0d1')
    expect(new URL(page.url()).searchParams.get('app')).toBe('7d431e42dfa6a6d693ac2d04')
    await context.close()
  })

  it('says what is wrong with what was typed', async () => {
    const existing = newTenant('uiexists')
    await ui.api(existing, 'GET', '/_sandbox/app') // made by its first request
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${ui.url}/_sandbox/ui/`)
    const form = page.locator('#sign-in-form')
    const error = page.locator('#sign-in-error')
    const tryWith = async (user: string, password: string, operator = false) => {
      await form.locator(operator ? '#as-operator' : '#as-app').check({ timeout: LIVE_MS })
      await form.getByLabel(operator ? 'Operator user' : 'appKey', { exact: true }).fill(user)
      await form.getByLabel(operator ? 'Operator password' : 'masterSecret', { exact: true }).fill(password)
      await form.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => error.innerText(), { timeout: LIVE_MS }).not.toBe('')
      const said = await error.innerText()
      await page.evaluate(() => {
        document.getElementById('sign-in-error')!.textContent = ''
      })
      return said
    }
    expect(await tryWith('test', 'test')).toContain(
      'An appKey is 24 letters or digits: "test" has 4 characters',
    )
    expect(await tryWith(existing.appKey, 'wrongsecret0000000000000')).toBe(
      `App ${existing.appKey} exists, with another masterSecret: type its own, or choose a new appKey for a new app.`,
    )
    expect(await tryWith(newTenant('uinew').appKey, 'short')).toContain(
      'A new app needs a masterSecret of 24 letters or digits too',
    )
    expect(await tryWith('operator', 'nope', true)).toContain('Wrong operator user or password')
    // Nothing was kept: a reload shows the sign-in page again.
    await page.reload()
    await form.waitFor({ timeout: LIVE_MS })
    await context.close()
  })

  it('a new well-formed appKey signs in as a new app; sign out forgets the credentials', async () => {
    const tenant = newTenant('uinewapp')
    const { page, context } = await ui.open(tenant, '#/phones')
    expect(await page.locator('#app-key').innerText()).toBe(tenant.appKey)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.locator('#sign-in-form').waitFor({ timeout: LIVE_MS })
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await page.reload()
    await page.locator('#sign-in-form').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('nav').isVisible()).toBe(false)
    await context.close()
  })

  it('signs in from the keyboard: the appKey has the focus, Tab to the masterSecret, Enter', async () => {
    const tenant = newTenant('uikeysign')
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${ui.url}/_sandbox/ui/`)
    await page.locator('#sign-in-form').waitFor({ timeout: LIVE_MS })
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-in-user')
    await page.keyboard.type(tenant.appKey)
    await page.keyboard.press('Tab')
    await page.keyboard.type(tenant.secret)
    await page.keyboard.press('Enter')
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(tenant.appKey)
    await context.close()
  })

  it('a sandbox without an operator says so on the sign-in page', async () => {
    const app = await buildApp(testConfig({ operator: null }))
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const context = await ui.browser.newContext()
      const page = await context.newPage()
      await page.goto(`${url}/_sandbox/ui/`)
      await page
        .getByText('This sandbox has no operator (SANDBOX_OPERATOR=off).')
        .waitFor({ timeout: LIVE_MS })
      const form = page.locator('#sign-in-form')
      await form.getByLabel('The operator (every app)').check()
      await form.getByLabel('Operator user').fill('operator')
      await form.getByLabel('Operator password').fill('operator')
      await form.getByRole('button', { name: 'Sign in' }).click()
      await page
        .locator('#sign-in-error', { hasText: 'This sandbox has no operator (SANDBOX_OPERATOR=off)' })
        .waitFor({ timeout: LIVE_MS })
      await context.close()
    } finally {
      await app.close()
    }
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
    await dialog.getByLabel('appKey', { exact: true }).fill(second.appKey)
    await dialog.getByLabel('masterSecret').fill('wrongsecret0000000000000')
    await dialog.getByRole('button', { name: 'Switch', exact: true }).click()
    await dialog.getByText(`Could not sign in as ${second.appKey}`).waitFor({ timeout: LIVE_MS })
    await dialog.getByLabel('masterSecret').fill(second.secret)
    await dialog.getByRole('button', { name: 'Switch', exact: true }).click()
    await page.getByRole('link', { name: /13900139000/ }).waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(second.appKey)
    expect(new URL(page.url()).searchParams.get('app')).toBe(second.appKey)
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
  it('a lost connection is one banner naming the address, not a stack of errors', async () => {
    const app = await buildApp(testConfig())
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    const context = await ui.browser.newContext()
    const page = await context.newPage()
    try {
      await page.goto(`${url}/_sandbox/ui/#/phones`)
      await ui.signIn(page, newTenant('uilost'))
      await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
      await app.close()
      await page.locator('#live[data-status="reconnecting"]').waitFor({ timeout: LIVE_MS })
      const banner = page.locator('#problems .problem')
      await banner.first().waitFor({ timeout: LIVE_MS })
      // Whatever fails meanwhile (the stream, each list read), one line says it: a read that fails.
      await page.evaluate(() => {
        location.hash = '#/requests'
      })
      await page.locator('main .problem').waitFor({ timeout: LIVE_MS })
      expect(await banner.count()).toBe(1)
      expect(await banner.innerText()).toBe(
        `Lost the connection to the sandbox at ${url}: reconnecting… (what you see may be out of date)`,
      )
    } finally {
      await context.close()
      await app.close()
    }
  })

  it("loads in under 200 KB, everything from this server: an app, and the operator's list", async () => {
    // Every byte the browser fetched (bodies as served, uncompressed, and headers) from opening
    // the address to the first view drawn and live: the page, its modules, its reads.
    const firstLoad = async (who: Tenant | 'operator', ready: string, settled?: RegExp) => {
      const context = await ui.browser.newContext()
      const page = await context.newPage()
      const requests: Array<{ url: string; bytes: Promise<number> }> = []
      page.on('requestfinished', req =>
        requests.push({
          url: req.url(),
          bytes: req.sizes().then(s => s.responseBodySize + s.responseHeadersSize),
        }),
      )
      // The operator's list holds a request open for the apps active next: it never idles.
      const held = settled && page.waitForRequest(settled, { timeout: LIVE_MS })
      await page.goto(`${ui.url}/_sandbox/ui/`)
      await ui.signIn(page, who)
      await page.locator(ready).first().waitFor({ timeout: LIVE_MS })
      if (held) await held
      else await page.waitForLoadState('networkidle')
      const total = (await Promise.all(requests.map(r => r.bytes))).reduce((a, b) => a + b, 0)
      for (const r of requests) expect(r.url.startsWith(ui.url), r.url).toBe(true)
      await context.close()
      return { requests: requests.length, total }
    }
    const app = await firstLoad(newTenant('uisize'), '#live[data-status="live"]')
    console.log(`ui: first load ${app.requests} requests, ${app.total} bytes (an app, the phones view)`)
    expect(app.total).toBeLessThan(200_000)
    const operator = await firstLoad('operator', '#apps tr[data-app-key]', /\/_sandbox\/apps\?after=.*&wait=/)
    console.log(`ui: first load ${operator.requests} requests, ${operator.total} bytes (the operator's list)`)
    expect(operator.total).toBeLessThan(200_000)
  })

  it('says clearly when too many failed sign-ins made the sandbox wait (429, Retry-After)', async () => {
    const tenant = newTenant('uithrottled')
    const context = await ui.browser.newContext()
    await context.clock.install()
    const page = await context.newPage()
    // The control plane's answer to credentials from an address that failed too often this minute.
    let throttled = true
    await page.route('**/_sandbox/app', route =>
      throttled
        ? route.fulfill({
            status: 429,
            headers: { 'retry-after': '37', 'content-type': 'application/json' },
            body: JSON.stringify({
              error: {
                code: 90008,
                message:
                  'too many failed sign-ins from this address: its credentials are checked again in 37 s (SIGN_IN_FAILURES_PER_MINUTE)',
              },
            }),
          })
        : route.continue(),
    )
    await page.goto(`${ui.url}/_sandbox/ui/`)
    await ui.signIn(page, tenant)
    const wait = page.locator('#sign-in-wait')
    await wait.waitFor({ timeout: LIVE_MS })
    expect(await wait.innerText()).toBe(
      'Too many failed sign-ins from this address: the sandbox checks credentials again in 37 s. (too many failed sign-ins from this address: its credentials are checked again in 37 s (SIGN_IN_FAILURES_PER_MINUTE) (90008))',
    )
    const button = page.locator('#sign-in-form').getByRole('button', { name: /^Sign in/ })
    expect(await button.isDisabled()).toBe(true)
    expect(await button.innerText()).toBe('Sign in (in 37 s)')
    // The page counts down with the clock, then lets the user try again.
    await page.clock.fastForward(10_000)
    await expect.poll(() => button.innerText(), { timeout: LIVE_MS }).toBe('Sign in (in 27 s)')
    await page.clock.fastForward(30_000)
    await expect.poll(() => wait.innerText(), { timeout: LIVE_MS }).toBe('You may sign in again now.')
    expect(await button.isDisabled()).toBe(false)
    throttled = false
    await button.click()
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    expect(await page.locator('#app-key').innerText()).toBe(tenant.appKey)
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
    await ui.api(tenant, 'POST', '/v1/messages', { mobile: '13800138000', temp_id: 99 })
    const unlabelled = (page: import('playwright-core').Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button')]
          .filter(el => {
            const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
            if (el instanceof HTMLButtonElement) return !(named || el.textContent?.trim())
            return !(named || (el as HTMLInputElement).labels?.length)
          })
          .map(el => el.outerHTML.slice(0, 120)),
      )
    // The sign-in page, before anything else.
    const bare = await ui.browser.newContext()
    const signInPage = await bare.newPage()
    await signInPage.goto(`${ui.url}/_sandbox/ui/`)
    await signInPage.locator('#sign-in-form').waitFor({ timeout: LIVE_MS })
    expect(await unlabelled(signInPage), 'sign-in').toEqual([])
    await bare.close()

    const { page, context } = await ui.open(tenant)
    const views = [
      'phones/13800138000',
      'devices/1a0018970a8b0fd6c0e',
      'scheduled',
      'requests',
      'callbacks',
      'templates',
      'clock',
      'settings',
    ]
    for (const view of views) {
      await page.goto(`${ui.url}/_sandbox/ui/?app=${tenant.appKey}#/${view}`)
      await page.locator('main h2').first().waitFor({ timeout: LIVE_MS })
      if (view === 'requests') await page.locator('details.request').first().waitFor({ timeout: LIVE_MS })
      await page.locator('details').evaluateAll(all => {
        for (const d of all) d.setAttribute('open', '')
      })
      expect(await unlabelled(page), view).toEqual([])
    }
    await context.close()

    // The operator's list of apps.
    const operator = await ui.browser.newContext()
    const opPage = await operator.newPage()
    await opPage.goto(`${ui.url}/_sandbox/ui/`)
    await ui.signIn(opPage, 'operator')
    await opPage.locator('#apps tr[data-app-key]').first().waitFor({ timeout: LIVE_MS })
    expect(await unlabelled(opPage), 'operator').toEqual([])
    await operator.close()
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
      'requests',
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

import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { basic, newKey } from '../helpers.js'

// The web UI in a real browser: Chromium or Chrome at CHROMIUM_PATH, by default Debian's chromium
// (`apt-get install chromium`; .ci/run installs it), driven by playwright-core, against a sandbox listening on a loopback port. One browser and one
// sandbox per test file; each test signs in as an app of its own, so tests never see each other's
// texts, clocks or resets. The sandbox's clock is a ManualClock: app time moves only when a test
// (or the UI) moves it; real-time waits are only for the browser, with generous bounds.

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
/**
 * A page reacting to the API: well under a second alone, but the machine is shared. A full page
 * load (a deep link opened in a signed-in tab) once took over 15 s in CI while every suite ran on
 * two cores: the bound is for a starved machine, not for a slow page.
 */
export const LIVE_MS = 30_000
/** A browser test takes several steps of up to LIVE_MS each: on a loaded machine 20 s is not enough. */
export const BROWSER_TEST_MS = 180_000

/**
 * Where the screenshots go: docs/ui (docs/web-ui.md's) with UI_SCREENSHOTS=1, a temporary folder
 * otherwise, so that a test run leaves the work tree as it was.
 */
const SHOTS =
  process.env.UI_SCREENSHOTS === '1'
    ? resolve(import.meta.dirname, '..', '..', 'docs', 'ui')
    : mkdtempSync(join(tmpdir(), 'jiguang-ui-'))

/** The one line a run without a browser fails with: how to get one. */
function noBrowser(): Error {
  const err = new Error(
    `no browser at ${CHROMIUM} for the web UI's tests: install one (Debian: apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable`,
  )
  err.stack = err.message // the line says it all: no stack under it
  return err
}

export interface Tenant {
  appKey: string
  secret: string
  auth: string
}

export function newTenant(prefix: string): Tenant {
  const appKey = newKey(prefix)
  const secret = newKey('secret')
  return { appKey, secret, auth: basic(appKey, secret) }
}

/** The browser and the sandbox of one test file, started before its tests and closed after. */
export function uiHarness() {
  const h = {} as { browser: Browser; app: SandboxApp; clock: ManualClock; url: string }
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw noBrowser()
    h.clock = new ManualClock()
    h.app = await buildApp(testConfig(), { clock: h.clock })
    h.url = await h.app.listen({ port: 0, host: '127.0.0.1' })
    h.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    })
  }, BROWSER_TEST_MS)
  afterAll(async () => {
    await h.browser?.close()
    await h.app?.close()
  })

  /** A JSON call with the tenant's credentials, as a client of the API would make it. */
  async function api(tenant: Pick<Tenant, 'auth'>, method: string, path: string, body?: unknown) {
    const res = await fetch(`${h.url}${path}`, {
      method,
      headers: { authorization: tenant.auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }

  /**
   * A browser window signed in as the tenant (or the operator) on the page's own sign-in form, as a
   * person would; `hash` is the view to open, `app` the deep link's `?app=` (the operator's app).
   */
  async function open(
    who: Tenant | 'operator',
    hash = '',
    options: { width?: number; height?: number; clipboard?: boolean; app?: string } = {},
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await h.browser.newContext({
      viewport: { width: options.width ?? 1200, height: options.height ?? 800 },
      colorScheme: 'light',
      acceptDownloads: true,
    })
    if (options.clipboard)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', err => problems.push(err.message))
    const query = options.app ? `?app=${options.app}` : ''
    await page.goto(`${h.url}/_sandbox/ui/${query}${hash}`)
    await signIn(page, who)
    await page.locator('#live[data-status="live"]').waitFor({ timeout: LIVE_MS })
    Object.assign(page, { problems })
    return { page, context }
  }

  /** Fills the sign-in page and sends it. */
  async function signIn(page: Page, who: Tenant | 'operator', password = 'operator'): Promise<void> {
    const form = page.locator('#sign-in-form')
    if (who === 'operator') {
      await form.getByLabel('The operator (every app)').check({ timeout: LIVE_MS })
      await form.getByLabel('Operator user').fill('operator')
      await form.getByLabel('Operator password').fill(password)
    } else {
      await form.getByLabel('appKey', { exact: true }).fill(who.appKey, { timeout: LIVE_MS })
      await form.getByLabel('masterSecret', { exact: true }).fill(who.secret)
    }
    await form.getByRole('button', { name: 'Sign in' }).click()
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
  }

  return Object.assign(h, { api, open, signIn, screenshot })
}

/** Marks the page, to show later that it was never reloaded (the mark would be gone). */
export async function markPage(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    ;(window as unknown as { notReloaded: boolean }).notReloaded = true
  })
  return () => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true)
}

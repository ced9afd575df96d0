import { AUTH } from './sms-flow.js'

// The web UI is in the image (its files are not compiled: the Dockerfile copies src/ui/public; Preact
// and htm come from the image's node_modules): the page (public: it signs in on its own page), the
// control plane behind the credentials, every file the page loads, and `/` leading a browser to it.

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) })

/** Each check as [passed, what it checked]. */
export async function webUiChecks(base: string): Promise<Array<[boolean, string]>> {
  const checks: Array<[boolean, string]> = []
  // The page is public: it signs in on a page of its own, so no browser prompt (no challenge).
  const page = await get(`${base}/_sandbox/ui/`)
  const html = await page.text()
  checks.push([
    page.status === 200 && html.includes('/_sandbox/ui/main.js') && !page.headers.has('www-authenticate'),
    'GET /_sandbox/ui/ without credentials: the page, and no Basic challenge',
  ])
  // What it shows is the control plane's, behind the app's credentials.
  const anonymous = await get(`${base}/_sandbox/app`)
  const signedIn = await get(`${base}/_sandbox/app`, { authorization: AUTH })
  checks.push([
    anonymous.status === 401 && signedIn.status === 200,
    'GET /_sandbox/app: 401 without credentials, 200 with them',
  ])
  // Every file the page names, every module those import (in the page's folders, and Preact's
  // and htm's through its import map), and the views' modules, imported when first shown.
  const map = JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}') as {
    imports?: Record<string, string>
  }
  const queue = [...html.matchAll(/(?:src|href)="(\/_sandbox\/ui\/[\w./-]+)"/g)].map(m => m[1]!)
  const seen = new Set<string>()
  while (queue.length > 0) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    seen.add(path)
    const res = await get(`${base}${path}`)
    const text = await res.text()
    if (res.status !== 200) checks.push([false, `GET ${path}: ${res.status}`])
    if (!/\.m?js$/.test(path)) continue
    const imports = [
      ...text.matchAll(/(?:^|[;}])\s*import\s*(?:[^'"]*?from\s*)?["']([^"']+)["']/gm),
      ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ]
    for (const [, dep] of imports) {
      const target = dep!.startsWith('.') ? new URL(dep!, `http://x${path}`).pathname : map.imports?.[dep!]
      if (target) queue.push(target)
      else checks.push([false, `${path} imports ${dep}, which the import map does not name`])
    }
  }
  checks.push([
    seen.size > 20 && seen.has('/_sandbox/ui/vendor/preact.mjs') && checks.every(([ok]) => ok),
    `its ${seen.size} files, Preact and htm among them`,
  ])
  const browser = await get(`${base}/`, { accept: 'text/html' })
  checks.push([
    browser.status === 302 && browser.headers.get('location') === '/_sandbox/ui/',
    'a browser asking for / is sent to /_sandbox/ui/',
  ])
  return checks
}

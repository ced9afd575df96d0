import { AUTH } from './sms-flow.js'

// The web UI is in the image (its files are not compiled: the Dockerfile copies src/ui/public):
// the page (public: it signs in on its own page), the control plane behind the credentials, every
// file the page loads, and `/` leading a browser to it.

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
  // Every file the page names, and every module those import.
  const queue = [...html.matchAll(/(?:src|href)="\/_sandbox\/ui\/([\w.-]+)"/g)].map(m => m[1]!)
  const seen = new Set<string>()
  while (queue.length > 0) {
    const name = queue.shift()!
    if (seen.has(name)) continue
    seen.add(name)
    const res = await get(`${base}/_sandbox/ui/${name}`)
    const text = await res.text()
    if (res.status !== 200) checks.push([false, `GET /_sandbox/ui/${name}: ${res.status}`])
    for (const m of text.matchAll(/from '\.\/([\w-]+\.js)'/g)) queue.push(m[1]!)
  }
  checks.push([seen.size > 8 && checks.every(([ok]) => ok), `its ${seen.size} files`])
  const browser = await get(`${base}/`, { accept: 'text/html' })
  checks.push([
    browser.status === 302 && browser.headers.get('location') === '/_sandbox/ui/',
    'a browser asking for / is sent to /_sandbox/ui/',
  ])
  return checks
}

// Which app the page speaks for. The browser signed in to the page with HTTP Basic (the 401 of
// /_sandbox/ui/ asked it to); the page learns those credentials from /_sandbox/ui/session and sends
// them itself, so that switching to another app is a form away: the app chosen there is kept for
// this tab (sessionStorage), and the apps used recently for this browser (localStorage): these are
// sandbox credentials, never a real service's.

const CURRENT = 'jiguang-sandbox.app'
const RECENT = 'jiguang-sandbox.recent'
const MAX_RECENT = 8

function read(storage, key, fallback) {
  try {
    return JSON.parse(storage.getItem(key)) ?? fallback
  } catch {
    return fallback
  }
}

/** The credentials of the app chosen in this tab, else those the browser signed in with. */
export async function currentCredentials() {
  const chosen = read(sessionStorage, CURRENT, null)
  if (chosen?.app_key && chosen.master_secret) return chosen
  const res = await fetch('/_sandbox/ui/session', { cache: 'no-store' })
  if (!res.ok) return null
  const signedIn = await res.json()
  remember(signedIn, { choose: false })
  return signedIn
}

/** Keeps an app's credentials among the recent ones; `choose`: this tab now speaks for it. */
export function remember(credentials, { choose = true } = {}) {
  const { app_key, master_secret } = credentials
  if (choose) sessionStorage.setItem(CURRENT, JSON.stringify({ app_key, master_secret }))
  const others = recentApps().filter(a => a.app_key !== app_key)
  localStorage.setItem(RECENT, JSON.stringify([{ app_key, master_secret }, ...others].slice(0, MAX_RECENT)))
}

/** Back to the app the browser signed in with. */
export function forgetChoice() {
  sessionStorage.removeItem(CURRENT)
}

export function recentApps() {
  const list = read(localStorage, RECENT, [])
  return Array.isArray(list) ? list.filter(a => a?.app_key && a.master_secret) : []
}

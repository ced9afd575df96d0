// @ts-check
// Who the page speaks as: an app (its appKey and masterSecret) or the operator (SANDBOX_OPERATOR,
// who opens any app by naming it). Typed on the sign-in page, kept for this tab only
// (sessionStorage: gone when the tab closes), never in the URL; the apps signed in to recently
// are kept for this browser (localStorage). These are sandbox credentials, never a real service's.

/**
 * @typedef {{ kind: 'app', app_key: string, master_secret: string }} AppCredentials
 * @typedef {{ kind: 'operator', user: string, password: string }} OperatorCredentials
 * @typedef {AppCredentials | OperatorCredentials} Credentials
 */

const CURRENT = 'jiguang-sandbox.session'
const RECENT = 'jiguang-sandbox.recent'
const MAX_RECENT = 8

/**
 * @param {Storage} storage
 * @param {string} key
 * @param {unknown} fallback
 * @returns {any}
 */
function read(storage, key, fallback) {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null') ?? fallback
  } catch {
    return fallback
  }
}

/** @returns {Credentials | null} the credentials this tab signed in with */
export function currentCredentials() {
  const c = read(sessionStorage, CURRENT, null)
  if (c?.kind === 'app' && c.app_key && c.master_secret) return c
  if (c?.kind === 'operator' && c.user && typeof c.password === 'string') return c
  return null
}

/** @param {Credentials} credentials this tab now speaks with them */
export function signIn(credentials) {
  sessionStorage.setItem(CURRENT, JSON.stringify(credentials))
  if (credentials.kind === 'app') remember(credentials)
}

export function signOut() {
  sessionStorage.removeItem(CURRENT)
}

/** @param {AppCredentials} credentials kept among the recent ones */
function remember({ app_key, master_secret }) {
  const others = recentApps().filter(a => a.app_key !== app_key)
  const list = [{ kind: 'app', app_key, master_secret }, ...others].slice(0, MAX_RECENT)
  localStorage.setItem(RECENT, JSON.stringify(list))
}

/** @returns {AppCredentials[]} */
export function recentApps() {
  const list = read(localStorage, RECENT, [])
  return Array.isArray(list)
    ? list
        .filter(a => a?.app_key && a.master_secret)
        .map(a => ({ kind: 'app', app_key: a.app_key, master_secret: a.master_secret }))
    : []
}

/** An appKey or masterSecret the official clients take: 24 letters or digits (jsms-api.md §1.2). */
export const WELL_FORMED = /^[A-Za-z0-9]{24}$/

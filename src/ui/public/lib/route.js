// @ts-check
// The address names what is shown, so that a CI log can print a link to it:
//   /_sandbox/ui/?app=<appKey>#/<view>/<args…>?<filters>
// `app` is the app (the operator opens it; an app's credentials must be its own), the hash the
// view, its arguments and its filters (`#/requests?outcome=4xx&code=50013`). Signed in as the
// operator, the address without `app` is the list of every app.

export const VIEW_IDS = [
  'phones',
  'devices',
  'scheduled',
  'requests',
  'callbacks',
  'templates',
  'clock',
  'settings',
]

/**
 * @typedef {{ id: string, args: string[], params: URLSearchParams, query: string }} Route
 */

/**
 * `#/phones/13800138000/<msg_id>?a=b` → { id: 'phones', args: [...], params, query: 'a=b' }
 * @param {string} hash
 * @returns {Route}
 */
export function parseRoute(hash) {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?')
  const [id = '', ...args] = path.split('/').map(part => {
    try {
      return decodeURIComponent(part)
    } catch {
      return part
    }
  })
  return {
    id: VIEW_IDS.includes(id) ? id : VIEW_IDS[0],
    args: args.filter(Boolean),
    params: new URLSearchParams(query),
    query,
  }
}

/** The Requests view filtered to the calls that made or named a msg_id (a text's or push's link to its call). */
export const callOf = msgId => `#/requests?msg_id=${encodeURIComponent(msgId)}`

/** The app the address names (`?app=`), if any. */
export const linkedApp = () => new URLSearchParams(location.search).get('app') || undefined

/**
 * The address of an app's view: `?app=<appKey>#/<view>…`.
 * @param {string} appKey
 * @param {string} [hash]
 */
export function appAddress(appKey, hash = '#/phones') {
  const url = new URL(location.href)
  url.search = `?app=${encodeURIComponent(appKey)}`
  url.hash = hash
  return `${url.pathname}${url.search}${url.hash}`
}

/** The operator's list of every app: the page's address without an app. */
export const appsAddress = () => location.pathname

/**
 * The address names this app from now on (the hash stays).
 * @param {string} appKey
 */
export function nameApp(appKey) {
  const url = new URL(location.href)
  if (url.searchParams.get('app') === appKey) return
  url.searchParams.set('app', appKey)
  history.replaceState(null, '', url)
}

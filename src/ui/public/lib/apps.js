// @ts-check
// The operator's list of every app (GET /_sandbox/apps), kept live: read once, then a request held
// for the apps active since (`after=` + `wait=`), answered as soon as one is, again and again. An
// app that comes back in such an answer replaces what the list had of it, and is marked as changed
// at that moment (the dashboard flashes its row). A broken connection reads the list again.

import { createApi } from './api.js'

/** The most apps read (the control plane's largest page); narrow them with a prefix. */
export const APPS_LIMIT = 1000
/** How long one look for newly active apps is held (the control plane allows 30 s). */
const WAIT_MS = 20_000
const RETRY_MS = 2000

/**
 * @typedef {{
 *   app_key: string, created_at: string, last_request_at: string | null, activity: number,
 *   counts: { texts: number, pushes: number, devices: number, requests: number, refusals: number },
 *   last_request: { seq: number, method: string, path: string, status: number, code: number | null, message: string | null } | null,
 *   clock: { now: number, offset_ms: number },
 * }} AppSummary
 * @typedef {{
 *   list: AppSummary[], changedAt: Record<string, number>, prefix: string, status: string,
 *   error: string, loaded: boolean, sort: { key: string, dir: 'asc' | 'desc' },
 *   refusedOnly: boolean, within: number,
 * }} AppsState
 */

/** @returns {AppsState} */
export function emptyApps() {
  return {
    list: [],
    changedAt: {},
    prefix: '',
    status: 'connecting',
    error: '',
    loaded: false,
    // Newest first: the order of the apps' latest activity.
    sort: { key: 'activity', dir: 'desc' },
    refusedOnly: false,
    within: 0,
  }
}

/**
 * Follows the apps whose appKey starts with `prefix`, writing them through `write`.
 * @param {import('./session.js').Credentials} operator
 * @param {string} prefix
 * @param {{ read: () => AppsState, write: (patch: Partial<AppsState>) => void }} io
 */
export function followApps(operator, prefix, io) {
  const api = createApi(operator)
  const controller = new AbortController()
  const { signal } = controller
  const q = prefix ? `&prefix=${encodeURIComponent(prefix)}` : ''
  let retry

  async function run() {
    try {
      const first = await api.get(`/_sandbox/apps?limit=${APPS_LIMIT}${q}`, { signal })
      io.write({ list: first.apps, loaded: true, status: 'live', error: '' })
      let after = first.next_after
      while (!signal.aborted) {
        const since = await api.get(`/_sandbox/apps?after=${after}&wait=${WAIT_MS}&limit=${APPS_LIMIT}${q}`, {
          signal,
        })
        after = since.next_after
        if (since.apps.length === 0) continue
        const { list, changedAt } = io.read()
        const fresh = new Map(since.apps.map(app => [app.app_key, app]))
        const now = Date.now()
        const marks = { ...changedAt }
        for (const key of fresh.keys()) marks[key] = now
        io.write({
          list: [...since.apps, ...list.filter(app => !fresh.has(app.app_key))],
          changedAt: marks,
        })
      }
    } catch (err) {
      if (signal.aborted) return
      io.write({ status: 'reconnecting', error: err.message })
      retry = setTimeout(run, RETRY_MS)
    }
  }

  run()
  return {
    stop() {
      controller.abort()
      clearTimeout(retry)
    },
  }
}

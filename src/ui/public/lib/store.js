// @ts-check
// The page's one store: who is signed in, which screen and view are shown, the open app's data,
// the operator's list of apps, the toasts and the dialog asking for a confirmation. Everything
// changes it through `set`/`update`, each change draws the page again (main.js), and Preact patches
// only what differs. What belongs to one control alone (a reply being typed, a <details> opened)
// stays in that control: the browser keeps it, since the element stays.

import { useEffect, useState } from 'preact/hooks'
import { emptyApps } from './apps.js'
import { emptyData } from './data.js'
import { parseRoute } from './route.js'

/**
 * @typedef {'loading' | 'sign-in' | 'dashboard' | 'app' | 'mismatch'} Screen
 * @typedef {{ id: number, message: string, kind: string }} Toast
 * @typedef {{ question: string, label: string, resolve: (ok: boolean) => void }} Confirm
 * @typedef {{
 *   info: import('../views/sign-in.js').Info,
 *   credentials: import('./session.js').Credentials | null,
 *   screen: Screen,
 *   notice: string,
 *   appKey: string,
 *   session: { api: import('./api.js').Api, data: import('./data.js').Data } | null,
 *   live: string,
 *   route: import('./route.js').Route,
 *   search: string,
 *   data: import('./data.js').AppData,
 *   apps: import('./apps.js').AppsState,
 *   toasts: Toast[],
 *   confirm: Confirm | null,
 *   switcher: { open: boolean, reason: string },
 * }} State
 */

/** @returns {State} */
function initial() {
  return {
    info: {},
    credentials: null,
    screen: 'loading',
    notice: '',
    appKey: '',
    session: null,
    live: 'connecting',
    route: parseRoute(location.hash),
    search: '',
    data: emptyData(),
    apps: emptyApps(),
    toasts: [],
    confirm: null,
    switcher: { open: false, reason: '' },
  }
}

/** @type {State} */
let state = initial()
const listeners = new Set()

export const store = {
  /** @returns {State} */
  get: () => state,
  /** @param {Partial<State>} patch */
  set(patch) {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  },
  /** @param {(s: State) => Partial<State>} change */
  update(change) {
    store.set(change(state))
  },
  /** @param {() => void} listener @returns {() => void} */
  subscribe(listener) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

/** The store's state, drawn again at each change (the root component's hook). */
export function useStore() {
  const [, redraw] = useState(0)
  useEffect(() => store.subscribe(() => redraw(n => n + 1)), [])
  return state
}

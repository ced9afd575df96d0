// @ts-check
// The header (the app shown, who is signed in, whether the page is live, the app's clock, the
// search box) and the views' tabs with their badges.

import { useEffect, useRef, useState } from 'preact/hooks'
import { beijing, duration } from '../lib/format.js'
import { html } from '../lib/html.js'
import { appsAddress } from '../lib/route.js'
import { store } from '../lib/store.js'

const LIVE_TEXT = { live: 'Live', reconnecting: 'Reconnecting…', connecting: 'Connecting…' }

/** The app's clock, ticking with real time between reads. */
function AppClock({ clock, readAt }) {
  const [, tick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => tick(n => n + 1), 1000)
    return () => clearInterval(timer)
  }, [])
  if (!clock) return html`<span id="app-clock"></span>`
  const now = clock.now + (Date.now() - readAt)
  const title = `${new Date(now).toISOString()} UTC; ${clock.offset_ms === 0 ? 'real time' : `${duration(clock.offset_ms)} ahead of real time`}`
  return html`<span id="app-clock" title=${title}>App time ${beijing(now)} (Beijing)</span>`
}

/** The search box: `/` focuses it from anywhere but a field. */
function Search({ value }) {
  const input = useRef(/** @type {HTMLInputElement | null} */ (null))
  useEffect(() => {
    const onKey = e => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '')
      if (e.key === '/' && !typing) {
        e.preventDefault()
        input.current?.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  return html`<label class="search">
    <span class="visually-hidden">Search</span>
    <input id="search" ref=${input} type="search" value=${value} autocomplete="off" aria-keyshortcuts="/"
      placeholder="Search: mobile, registration_id, text, msg_id (press /)"
      onInput=${e => store.set({ search: e.currentTarget.value })} />
  </label>`
}

/**
 * @param {{ s: import('../lib/store.js').State, onSignOut: () => void, onSwitch: () => void, onAllApps: (e: Event) => void }} props
 */
export function Header({ s, onSignOut, onSwitch, onAllApps }) {
  const signedIn = s.screen === 'app' || s.screen === 'dashboard' || s.screen === 'mismatch'
  const operator = s.credentials?.kind === 'operator'
  const inApp = s.screen === 'app' || s.screen === 'mismatch'
  const status = s.screen === 'dashboard' ? s.apps.status : s.live
  return html`<header class="top">
    <h1><a class="brand" href=${inApp ? '#/phones' : appsAddress()}>jiguang-sandbox</a></h1>
    ${
      operator &&
      signedIn &&
      html`<a id="all-apps" href=${appsAddress()} onClick=${onAllApps} aria-current=${s.screen === 'dashboard' ? 'page' : null}>All apps</a>`
    }
    ${
      inApp &&
      html`<button id="app-button" type="button" onClick=${onSwitch}
      title=${operator ? 'Open another app: the list of every app' : 'Switch to another app'}>
      App <code id="app-key">${s.appKey}</code>
    </button>`
    }
    ${signedIn && html`<span id="who">${operator && html`<span class="badge warn">operator</span>`}</span>`}
    ${
      (s.screen === 'app' || s.screen === 'dashboard') &&
      html`<span id="live" role="status" data-status=${status}>${LIVE_TEXT[status] ?? status}</span>`
    }
    ${s.screen === 'app' && html`<${AppClock} clock=${s.data.app?.clock} readAt=${s.data.clockReadAt} />`}
    ${s.screen === 'app' && html`<${Search} value=${s.search} />`}
    ${!(s.screen === 'app') && html`<span class="spacer"></span>`}
    <a id="docs-link" href="/_sandbox/docs" title="The HTTP API: every endpoint, with its OpenAPI document">API docs</a>
    ${signedIn && html`<button id="sign-out" type="button" onClick=${onSignOut}>Sign out</button>`}
  </header>`
}

/**
 * The views' tabs, each with its badge (a count drawn from the app's data).
 * @param {{ views: Array<{ id: string, label: string, count?: (d: any) => number }>, current: string, data: any }} props
 */
export function Nav({ views, current, data }) {
  return html`<nav aria-label="Views">
    <ul id="views">
      ${views.map(
        v => html`<li key=${v.id}>
          <a href=${`#/${v.id}`} data-view=${v.id} aria-current=${v.id === current ? 'page' : null}>
            ${v.label} <span class="count">${v.count?.(data) || ''}</span>
          </a>
        </li>`,
      )}
    </ul>
  </nav>`
}

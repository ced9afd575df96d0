// The web UI (README "Web UI"): one page, signed in as one app, every view a client of /_sandbox,
// kept live by the app's event stream.

import { createApi } from './api.js'
import { callbacksView } from './callbacks.js'
import { clockView } from './clock.js'
import { createData } from './data.js'
import { devicesView } from './devices.js'
import { beijing, h } from './dom.js'
import { follow } from './live.js'
import { phonesView } from './phones.js'
import { reviewsView } from './reviews.js'
import { scheduledView } from './scheduled.js'
import { currentCredentials } from './session.js'
import { settingsView } from './settings.js'
import { openSwitch, setUpDialogs } from './switch.js'

const VIEWS = [phonesView, devicesView, scheduledView, callbacksView, reviewsView, clockView, settingsView]

const main = document.getElementById('main')
const search = document.getElementById('search')
let session // { api, data, stream }

/** `#/phones/13800138000/<msg_id>` → { id: 'phones', args: ['13800138000', '<msg_id>'] } */
function route() {
  const [id = '', ...args] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent)
  return { id: VIEWS.some(v => v.id === id) ? id : VIEWS[0].id, args: args.filter(Boolean) }
}

// What the user is typing survives a live re-render: inputs they changed keep their value, and the
// focused control keeps focus (forms say `done(form)` once sent).
const dirty = new Set()
main.addEventListener('input', e => e.target.id && dirty.add(e.target.id))
main.addEventListener('change', e => e.target.id && dirty.add(e.target.id))
const byId = (root, id) => root.querySelector(`#${CSS.escape(id)}`)

function renderMain(ctx, view) {
  const values = new Map()
  for (const id of dirty) {
    const el = byId(main, id)
    if (el) values.set(id, el.type === 'checkbox' ? el.checked : el.value)
  }
  const active = document.activeElement
  const focus = main.contains(active) && active.id ? active : null
  const selection = focus && 'selectionStart' in focus ? [focus.selectionStart, focus.selectionEnd] : null
  main.replaceChildren(view.render(ctx))
  for (const [id, value] of values) {
    const el = byId(main, id)
    if (!el) dirty.delete(id)
    else if (el.type === 'checkbox') el.checked = value
    else el.value = value
  }
  const refocus = focus && byId(main, focus.id)
  if (refocus) {
    refocus.focus({ preventScroll: true })
    if (selection && selection[0] !== null) refocus.setSelectionRange?.(...selection)
  }
  view.afterRender?.(main, ctx)
}

function render() {
  if (!session) return
  const { data, api } = session
  const current = route()
  const view = VIEWS.find(v => v.id === current.id)
  const ctx = {
    api,
    data,
    state: data.state,
    route: current,
    search: search.value.trim(),
    render,
    // A form (or one field) was sent: it shows what the app says from now on.
    done: sent => {
      for (const el of sent.elements ?? [sent]) dirty.delete(el.id)
    },
  }
  for (const v of VIEWS) {
    const link = document.querySelector(`nav a[data-view="${v.id}"]`)
    if (v.id === current.id) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
    link.querySelector('.count').textContent = v.count?.(data.state) || ''
  }
  document.title = `${view.label} · ${api.appKey} · jiguang-sandbox`
  const errors = Object.values(data.state.errors)
  document
    .getElementById('problems')
    .replaceChildren(...errors.map(e => h('p', { class: 'problem' }, `Could not read: ${e.message}`)))
  // The app was removed, or its secret is not the one this tab has: sign in again.
  if (errors.some(e => e.status === 401))
    openSwitch(`The credentials of ${api.appKey} were refused: sign in as an app again.`)
  renderMain(ctx, view)
  showClock()
}

/** The app's clock in the header, ticking with real time between reads. */
function showClock() {
  const clock = session?.data.state.app?.clock
  const out = document.getElementById('app-clock')
  if (!clock) return
  const now = clock.now + (Date.now() - session.data.state.clockReadAt)
  out.textContent = `App time ${beijing(now)} (Beijing)`
  out.title = `${new Date(now).toISOString()} UTC; offset ${clock.offset_ms} ms from real time`
}

function setStatus(status) {
  const el = document.getElementById('live')
  el.dataset.status = status
  el.textContent = { live: 'Live', reconnecting: 'Reconnecting…' }[status] ?? status
}

/** Speaks for the app of these credentials: its data, its stream, its views. */
function start(credentials) {
  session?.stream.stop()
  const api = createApi(credentials)
  const data = createData(api, render)
  const stream = follow(api, { onEvent: data.onEvent, onOpen: () => data.invalidate(), onStatus: setStatus })
  session = { api, data, stream }
  document.getElementById('app-key').textContent = credentials.app_key
  main.replaceChildren(h('p', { class: 'empty' }, 'Loading…'))
  data.invalidate()
}

function buildNav() {
  const list = document.getElementById('views')
  list.replaceChildren(
    ...VIEWS.map(v =>
      h(
        'li',
        null,
        h('a', { href: `#/${v.id}`, 'data-view': v.id }, v.label, ' ', h('span', { class: 'count' })),
      ),
    ),
  )
}

async function boot() {
  buildNav()
  setUpDialogs(start)
  let shown = route().id
  window.addEventListener('hashchange', () => {
    render()
    // A new view: focus moves to it (within a view, e.g. from one phone to the next, it stays).
    if (route().id !== shown) main.focus({ preventScroll: true })
    shown = route().id
  })
  search.addEventListener('input', render)
  document.addEventListener('keydown', e => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '')
    if (e.key === '/' && !typing) {
      e.preventDefault()
      search.focus()
    }
  })
  setInterval(showClock, 1000)
  const credentials = await currentCredentials()
  if (credentials) start(credentials)
  else openSwitch('Sign in with an app: its appKey and masterSecret.')
}

boot()

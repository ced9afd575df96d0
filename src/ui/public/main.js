// @ts-check
// The web UI (docs/web-ui.md): one page, signed in on its own form as an app or as the operator,
// every view a client of /_sandbox, kept live by the app's event stream.
//
// The address names what is shown, so that a CI log can print a link to it:
//   /_sandbox/ui/?app=<appKey>#/<view>/<args…>?<filters>
// `app` is the app (the operator opens it; an app's credentials must be its own), the hash the
// view, its arguments and its filters (`#/requests?outcome=4xx&code=50013`).

import { ApiError, createApi } from './api.js'
import { callbacksView } from './callbacks.js'
import { clockView } from './clock.js'
import { createData } from './data.js'
import { devicesView } from './devices.js'
import { beijing, duration, h } from './dom.js'
import { follow } from './live.js'
import { phonesView } from './phones.js'
import { requestsQuery, requestsView } from './requests.js'
import { reviewsView } from './reviews.js'
import { scheduledView } from './scheduled.js'
import { currentCredentials, signIn, signOut } from './session.js'
import { settingsView } from './settings.js'
import { signInPage } from './sign-in.js'
import { openSwitch, setUpDialogs } from './switch.js'

const VIEWS = [
  phonesView,
  devicesView,
  scheduledView,
  requestsView,
  callbacksView,
  reviewsView,
  clockView,
  settingsView,
]

const main = document.getElementById('main')
const search = /** @type {HTMLInputElement} */ (document.getElementById('search'))
/**
 * The app the page speaks for now.
 * @type {{ credentials: import('./session.js').Credentials, api: import('./api.js').Api, data: ReturnType<typeof createData>, status: string, stream?: { stop(): void } } | undefined}
 */
let session
/** GET /_sandbox/info: whether there is an operator, whether new appKeys make apps. */
let info = {}

/** `#/phones/13800138000/<msg_id>?a=b` → { id: 'phones', args: [...], params: URLSearchParams } */
export function route() {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?')
  const [id = '', ...args] = path.split('/').map(decodeURIComponent)
  return {
    id: VIEWS.some(v => v.id === id) ? id : VIEWS[0].id,
    args: args.filter(Boolean),
    params: new URLSearchParams(query),
  }
}

/** The codes of the open phone (its newest ten), whose state the phone view shows. */
function codesShown(current, messages) {
  const [mobile] = current.args
  if (current.id !== 'phones' || !mobile) return []
  return messages
    .filter(m => m.mobile === mobile && m.code)
    .slice(0, 10)
    .map(m => m.msg_id)
}

/** The app the address names (`?app=`), if any. */
const linkedApp = () => new URLSearchParams(location.search).get('app') || undefined

/** The address names this app from now on (the hash stays). */
function nameApp(appKey) {
  const url = new URL(location.href)
  if (url.searchParams.get('app') === appKey) return
  url.searchParams.set('app', appKey)
  history.replaceState(null, '', url)
}

// What the user is typing survives a live re-render: inputs they changed keep their value, and the
// focused control keeps focus (forms say `done(form)` once sent).
const dirty = new Set()
/** @param {Event} e */
const touched = e => {
  const { id } = /** @type {HTMLElement} */ (e.target)
  if (id) dirty.add(id)
}
main.addEventListener('input', touched)
main.addEventListener('change', touched)
/** @returns {any} the element of that id under root (an input, mostly) */
const byId = (root, id) => root.querySelector(`#${CSS.escape(id)}`)

function renderMain(ctx, view) {
  const values = new Map()
  for (const id of dirty) {
    const el = byId(main, id)
    if (el) values.set(id, el.type === 'checkbox' ? el.checked : el.value)
  }
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement)
  const focus = active && main.contains(active) && active.id ? active : null
  const selection = focus && 'selectionStart' in focus ? [focus.selectionStart, focus.selectionEnd] : null
  main.replaceChildren(view.render(ctx))
  for (const [id, value] of values) {
    const el = byId(main, id)
    if (!el) dirty.delete(id)
    else if (el.type === 'checkbox') el.checked = value
    else if (el.type !== 'file') el.value = value
  }
  const refocus = focus && byId(main, focus.id)
  if (refocus) {
    refocus.focus({ preventScroll: true })
    if (selection && selection[0] !== null) refocus.setSelectionRange?.(...selection)
  }
  view.afterRender?.(main, ctx)
}

/** The problems above the view: ONE line when the sandbox cannot be reached, else each refusal. */
function showProblems(errors) {
  const box = document.getElementById('problems')
  const lost = session?.status === 'reconnecting' || errors.some(e => !(e instanceof ApiError))
  if (lost) {
    box.replaceChildren(
      h(
        'p',
        { class: 'problem', id: 'lost' },
        `Lost the connection to the sandbox at ${location.origin}: reconnecting… (what you see may be out of date)`,
      ),
    )
    return
  }
  const messages = [...new Set(errors.map(e => e.message))]
  box.replaceChildren(...messages.map(m => h('p', { class: 'problem' }, `Could not read: ${m}`)))
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
  showProblems(errors)
  // The app was removed, or its secret is not the one this tab has: sign in again.
  if (errors.some(e => e.status === 401)) {
    signOut()
    return showSignIn(`The credentials of ${api.appKey} were refused: sign in again.`)
  }
  // The operator named an app that is not (or no longer) there.
  if (errors.some(e => e.code === 90048)) {
    stop()
    main.replaceChildren(h('p', { class: 'empty' }, `No app ${api.appKey} in this sandbox.`))
    return openSwitch(`No app ${api.appKey} in this sandbox: open another.`)
  }
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
  out.title = `${new Date(now).toISOString()} UTC; ${clock.offset_ms === 0 ? 'real time' : `${duration(clock.offset_ms)} ahead of real time`}`
}

function setStatus(status) {
  if (!session) return
  session.status = status
  const el = document.getElementById('live')
  el.dataset.status = status
  el.textContent = { live: 'Live', reconnecting: 'Reconnecting…' }[status] ?? status
  showProblems(Object.values(session.data.state.errors))
}

function stop() {
  session?.stream.stop()
  session = undefined
}

/** Speaks for one app: its data, its stream, its views (the operator names it in each call). */
function start(credentials, appKey) {
  stop()
  nameApp(appKey)
  document.body.classList.remove('signed-out')
  const api = createApi(credentials, appKey)
  const data = createData(api, render, {
    requestsQuery: () => requestsQuery(route()),
    codesShown: messages => codesShown(route(), messages),
  })
  session = { credentials, api, data, status: 'connecting' }
  session.stream = follow(api, {
    onEvent: data.onEvent,
    onOpen: () => data.invalidate(),
    onStatus: setStatus,
  })
  document.getElementById('app-key').textContent = appKey
  document
    .getElementById('who')
    .replaceChildren(credentials.kind === 'operator' ? h('span', { class: 'badge warn' }, 'operator') : '')
  main.replaceChildren(h('p', { class: 'empty' }, 'Loading…'))
  data.invalidate()
}

/** The operator's badge in the header, when signed in as the operator. */
function showWho(credentials) {
  document
    .getElementById('who')
    .replaceChildren(credentials.kind === 'operator' ? h('span', { class: 'badge warn' }, 'operator') : '')
}

function showSignIn(reason = '') {
  stop()
  document.body.classList.add('signed-out')
  document.getElementById('problems').replaceChildren()
  document.title = 'Sign in · jiguang-sandbox'
  const wanted = linkedApp()
  main.replaceChildren(
    signInPage({
      info,
      appKey: wanted,
      reason:
        reason ||
        (wanted ? `This link opens app ${wanted}: sign in with its masterSecret, or as the operator.` : ''),
      onSignedIn: credentials => {
        signIn(credentials)
        enter(credentials)
      },
    }),
  )
  const first = /** @type {HTMLElement | null} */ (main.querySelector('#sign-in-user'))
  first?.focus()
}

/** Signed in: the app the address names (an app's credentials: only their own), else theirs. */
function enter(credentials) {
  const wanted = linkedApp()
  if (credentials.kind === 'operator') {
    if (wanted) return start(credentials, wanted)
    stop()
    document.body.classList.remove('signed-out')
    document.getElementById('app-key').textContent = 'none'
    document.getElementById('live').textContent = 'No app open'
    showWho(credentials)
    main.replaceChildren(h('p', { class: 'empty' }, 'Open an app to see it.'))
    return openSwitch()
  }
  if (wanted && wanted !== credentials.app_key) return showMismatch(credentials, wanted)
  start(credentials, credentials.app_key)
}

/** A link to another app than the one these credentials are: say so, and offer both ways out. */
function showMismatch(credentials, wanted) {
  stop()
  document.body.classList.remove('signed-out')
  document.getElementById('app-key').textContent = credentials.app_key
  main.replaceChildren(
    h(
      'section',
      { class: 'single', 'aria-labelledby': 'mismatch-title' },
      h('h2', { id: 'mismatch-title' }, 'This link is for another app'),
      h(
        'p',
        { class: 'problem' },
        `The link opens app ${wanted}, and this tab is signed in as app ${credentials.app_key}: an app's credentials show that app alone.`,
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              signOut()
              showSignIn()
            },
          },
          `Sign in as ${wanted} (or as the operator)`,
        ),
        ' ',
        h(
          'button',
          { type: 'button', onclick: () => start(credentials, credentials.app_key) },
          `Show ${credentials.app_key} instead`,
        ),
      ),
    ),
  )
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
  setUpDialogs((credentials, appKey) => start(credentials, appKey), currentCredentials)
  let shown = route().id
  window.addEventListener('hashchange', () => {
    if (session) session.data.invalidate(route().id === 'phones' ? ['requests', 'sms'] : ['requests'])
    render()
    // A new view: focus moves to it (within a view, e.g. from one phone to the next, it stays).
    if (route().id !== shown) main.focus({ preventScroll: true })
    shown = route().id
  })
  search.addEventListener('input', render)
  document.addEventListener('keydown', e => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '')
    if (e.key === '/' && !typing && session) {
      e.preventDefault()
      search.focus()
    }
  })
  document.getElementById('sign-out').addEventListener('click', () => {
    signOut()
    showSignIn()
  })
  setInterval(showClock, 1000)
  try {
    info = await (await fetch('/_sandbox/info', { cache: 'no-store' })).json()
  } catch {
    info = {}
  }
  const credentials = currentCredentials()
  if (credentials) enter(credentials)
  else showSignIn()
}

boot()

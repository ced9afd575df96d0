// @ts-check
// The web UI (docs/web-ui.md): one page, signed in on its own form as an app or as the operator,
// every view a client of /_sandbox, kept live by the app's event stream. Its state is one store
// (lib/store.js); the page is drawn from it by Preact components (components/, views/), which patch
// the DOM at each change instead of drawing it anew.
//
// The address names what is shown (lib/route.js): `?app=<appKey>#/<view>/<args…>?<filters>`;
// signed in as the operator, the address without `app` is the list of every app (views/apps.js).

import { render } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ConfirmDialog } from './components/dialogs.js'
import { Header, Nav } from './components/header.js'
import { SwitchDialog } from './components/switch-app.js'
import { Toasts } from './components/toasts.js'
import { ApiError, createApi } from './lib/api.js'
import { emptyApps } from './lib/apps.js'
import { createData, emptyData, requestsQuery } from './lib/data.js'
import { html } from './lib/html.js'
import { follow } from './lib/live.js'
import { appAddress, appsAddress, linkedApp, nameApp, parseRoute } from './lib/route.js'
import { currentCredentials, signIn, signOut } from './lib/session.js'
import { store, useStore } from './lib/store.js'
import { loadApps, loadSignIn, VIEWS } from './views/index.js'

/** The event stream of the app the page speaks for, while it does. */
let stream

/** The codes of the open phone (its newest ten), whose state the phone view shows. */
function codesShown(messages) {
  const { route } = store.get()
  const [mobile] = route.args
  if (route.id !== 'phones' || !mobile) return []
  return messages
    .filter(m => m.mobile === mobile && m.code)
    .slice(0, 10)
    .map(m => m.msg_id)
}

/** After each read: credentials refused, or the operator's app gone, end the app's screen. */
function checkErrors() {
  const { data, appKey } = store.get()
  const errors = Object.values(data.errors)
  // The app was removed, or its secret is not the one this tab has: sign in again.
  if (errors.some(e => e.status === 401)) {
    signOut()
    showSignIn(`The credentials of ${appKey} were refused: sign in again.`)
  } else if (errors.some(e => e.code === 90048)) showApps(`No app ${appKey} in this sandbox: open another.`)
}

function stop() {
  stream?.stop()
  stream = undefined
  store.get().session?.data.stop()
}

/** Speaks for one app: its data, its stream, its views (the operator names it in each call). */
function start(credentials, appKey) {
  stop()
  nameApp(appKey)
  const api = createApi(credentials, appKey)
  const data = createData(
    api,
    {
      read: () => store.get().data,
      write: patch => store.update(s => ({ data: { ...s.data, ...patch } })),
      onRead: checkErrors,
    },
    { requestsQuery: () => requestsQuery(store.get().route), codesShown },
  )
  store.set({
    screen: 'app',
    credentials,
    appKey,
    notice: '',
    session: { api, data },
    live: 'connecting',
    data: emptyData(),
    route: parseRoute(location.hash),
    switcher: { open: false, reason: '' },
  })
  stream = follow(api, {
    onEvent: data.onEvent,
    onOpen: () => data.invalidate(),
    onStatus: live => store.set({ live }),
  })
  data.invalidate()
}

function showSignIn(reason = '') {
  stop()
  const wanted = linkedApp()
  store.set({
    screen: 'sign-in',
    credentials: null,
    session: null,
    data: emptyData(),
    apps: emptyApps(),
    notice:
      reason ||
      (wanted ? `This link opens app ${wanted}: sign in with its masterSecret, or as the operator.` : ''),
  })
}

/** The operator's list of every app; `notice` says why it is shown, if there is a reason. */
function showApps(notice = '') {
  stop()
  if (linkedApp()) history.pushState(null, '', appsAddress())
  store.set({ screen: 'dashboard', session: null, data: emptyData(), appKey: '', notice })
}

/** Signed in: the app the address names (an app's credentials: only their own), else theirs. */
function enter(credentials) {
  const wanted = linkedApp()
  store.set({ credentials })
  if (credentials.kind === 'operator') {
    if (wanted) return start(credentials, wanted)
    return showApps()
  }
  if (wanted && wanted !== credentials.app_key) {
    stop()
    return store.set({ screen: 'mismatch', appKey: credentials.app_key, session: null, notice: wanted })
  }
  start(credentials, credentials.app_key)
}

/** The operator opens an app from the list, in place: a new entry of the history (Back returns). */
function openApp(appKey, hash = '#/phones') {
  const { credentials } = store.get()
  if (!credentials) return
  history.pushState(null, '', appAddress(appKey, hash))
  start(credentials, appKey)
  document.getElementById('main')?.focus({ preventScroll: true })
}

/** A link to another app than the one these credentials are: say so, and offer both ways out. */
function Mismatch({ s }) {
  const wanted = s.notice
  const mine = s.credentials?.kind === 'app' ? s.credentials.app_key : ''
  return html`<section class="single" aria-labelledby="mismatch-title">
    <h2 id="mismatch-title">This link is for another app</h2>
    <p class="problem">
      The link opens app ${wanted}, and this tab is signed in as app ${mine}: an app's credentials show that app alone.
    </p>
    <div class="actions">
      <button type="button" onClick=${() => {
        signOut()
        showSignIn()
      }}>Sign in as ${wanted} (or as the operator)</button>
      <button type="button" onClick=${() => start(s.credentials, mine)}>Show ${mine} instead</button>
    </div>
  </section>`
}

/** The problems above the view: ONE line when the sandbox cannot be reached, else each refusal. */
function Problems({ s }) {
  const errors = Object.values(s.data.errors)
  const lost = s.screen === 'app' && (s.live === 'reconnecting' || errors.some(e => !(e instanceof ApiError)))
  const messages = lost ? [] : [...new Set(errors.map(e => e.message))]
  return html`<div id="problems" role="alert">
    ${
      lost &&
      html`<p class="problem" id="lost">
      Lost the connection to the sandbox at ${location.origin}: reconnecting… (what you see may be out of date)
    </p>`
    }
    ${messages.map(m => html`<p class="problem" key=${m}>Could not read: ${m}</p>`)}
  </div>`
}

/** Modules loaded so far, by their loader. */
const loaded = new Map()

/**
 * A view whose module is loaded the first time it is shown (views/index.js); `Loading…` until then.
 * @param {{ load: () => Promise<any>, name?: string, props: Record<string, any> }} props
 */
function Lazy({ load, name = 'View', props }) {
  const [failed, setFailed] = useState(/** @type {string | null} */ (null))
  const module = loaded.get(load)
  useEffect(() => {
    if (module) return
    setFailed(null)
    load()
      .then(m => {
        loaded.set(load, m)
        store.set({}) // drawn again, now with it
      })
      .catch(err => setFailed(err.message))
  }, [load])
  if (module) return html`<${module[name]} ...${props} />`
  return failed
    ? html`<p class="problem">Could not load this view from the sandbox (${failed}): reload the page.</p>`
    : html`<p class="empty">Loading…</p>`
}

function Screen({ s }) {
  if (s.screen === 'loading') return html`<p class="empty">Loading…</p>`
  if (s.screen === 'sign-in')
    return html`<${Lazy}
      load=${loadSignIn}
      name="SignInPage"
      props=${{
        info: s.info,
        appKey: linkedApp(),
        reason: s.notice,
        onSignedIn: credentials => {
          signIn(credentials)
          enter(credentials)
        },
      }}
    />`
  if (s.screen === 'dashboard')
    return html`<${Lazy} load=${loadApps} name="AppsView" props=${{ s, onOpen: openApp }} />`
  if (s.screen === 'mismatch') return html`<${Mismatch} s=${s} />`
  const view = VIEWS.find(v => v.id === s.route.id) ?? VIEWS[0]
  return html`<${Lazy} key=${view.id} load=${view.load} props=${{ s }} />`
}

function App() {
  const s = useStore()
  const main = useRef(/** @type {HTMLElement | null} */ (null))
  const view = VIEWS.find(v => v.id === s.route.id) ?? VIEWS[0]
  useEffect(() => {
    document.title =
      s.screen === 'app'
        ? `${view.label} · ${s.appKey} · jiguang-sandbox`
        : s.screen === 'dashboard'
          ? 'Apps · jiguang-sandbox'
          : s.screen === 'sign-in'
            ? 'Sign in · jiguang-sandbox'
            : 'jiguang-sandbox'
  })
  // A new view: focus moves to it (within a view, e.g. from one phone to the next, it stays).
  const shown = useRef(s.route.id)
  useEffect(() => {
    if (shown.current !== s.route.id && s.screen === 'app') main.current?.focus({ preventScroll: true })
    shown.current = s.route.id
  }, [s.route.id])
  const operator = s.credentials?.kind === 'operator'
  return html`
    <a class="skip" href="#main" onClick=${e => {
      e.preventDefault()
      main.current?.focus()
    }}>Skip to the view</a>
    <${Header}
      s=${s}
      onSignOut=${() => {
        signOut()
        showSignIn()
      }}
      onSwitch=${() => (operator ? showApps() : store.set({ switcher: { open: true, reason: '' } }))}
      onAllApps=${e => {
        e.preventDefault()
        showApps()
      }}
    />
    ${s.screen === 'app' && html`<${Nav} views=${VIEWS} current=${s.route.id} data=${s.data} />`}
    <${Problems} s=${s} />
    <main id="main" ref=${main} tabindex="-1"><${Screen} s=${s} /></main>
    <${Toasts} toasts=${s.toasts} />
    ${
      !operator &&
      html`<${SwitchDialog}
      open=${s.switcher.open}
      reason=${s.switcher.reason}
      onSwitch=${credentials => start(credentials, credentials.app_key)}
    />`
    }
    <${ConfirmDialog} confirm=${s.confirm} />
  `
}

async function boot() {
  window.addEventListener('hashchange', () => {
    const route = parseRoute(location.hash)
    store.set({ route })
    store.get().session?.data.invalidate(route.id === 'phones' ? ['requests', 'sms'] : ['requests'])
  })
  // Back and Forward between the operator's list and an app opened from it.
  window.addEventListener('popstate', () => {
    const { credentials, appKey, screen } = store.get()
    if (!credentials) return
    const wanted = linkedApp()
    if (wanted ? wanted !== appKey || screen !== 'app' : screen !== 'dashboard') enter(credentials)
  })
  const root = /** @type {HTMLElement} */ (document.getElementById('root'))
  root.replaceChildren()
  render(html`<${App} />`, root)
  let info = {}
  try {
    info = await (await fetch('/_sandbox/info', { cache: 'no-store' })).json()
  } catch {
    info = {}
  }
  store.set({ info })
  const credentials = currentCredentials()
  if (credentials) enter(credentials)
  else showSignIn()
}

boot()

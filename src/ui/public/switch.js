// @ts-check
// Switching apps, and confirming what cannot be undone. Both are native <dialog>s: focus moves
// into them, Escape closes them, and the page behind is inert while they are open.
// Signed in as an app, the dialog signs in as another (its appKey and masterSecret) or one used
// recently; signed in as the operator, it lists every app (GET /_sandbox/apps, the most recently
// active first, searched by appKey prefix) and keeps the list live while it is open (`wait=`).

import { createApi } from './api.js'
import { h, time } from './dom.js'
import { recentApps, signIn } from './session.js'

/** An app whose last request is this recent is shown as active. */
const ACTIVE_MS = 60_000
/** How long one look for newly active apps is held (the control plane allows 30 s). */
const WAIT_MS = 20_000

/** @type {(credentials: import('./session.js').Credentials, appKey: string) => void} */
let openApp
/** @type {() => import('./session.js').Credentials | null} */
let signedInAs

/** @param {string} id @returns {any} the page's element of that id (a dialog, an input…) */
const $ = id => document.getElementById(id)

/** Tries app credentials on GET /_sandbox/app; on success this tab speaks for that app. */
async function switchTo(credentials) {
  const error = $('switch-error')
  error.textContent = ''
  try {
    await createApi(credentials).get('/_sandbox/app')
  } catch (err) {
    error.textContent = `Could not sign in as ${credentials.app_key}: ${err.message}`
    return false
  }
  signIn(credentials)
  $('switch-app').close()
  openApp(credentials, credentials.app_key)
  return true
}

// The operator's list: what GET /_sandbox/apps answered, kept by appKey, and the live look.
const listed = new Map()
/** appKeys seen active while the dialog was open. */
const justActive = new Set()
let look // AbortController of the held request
let nextAfter

function appRow(operator, app) {
  const last = app.last_request_at ? Date.parse(app.last_request_at) : 0
  const active = justActive.has(app.app_key) || Date.now() - last < ACTIVE_MS
  const c = app.counts
  const n = (count, what) => `${count} ${what}${count === 1 ? '' : 's'}`
  return h(
    'li',
    { 'data-app-key': app.app_key, class: active ? 'active' : '' },
    h(
      'button',
      {
        type: 'button',
        class: 'link',
        onclick: () => {
          $('switch-app').close()
          openApp(operator, app.app_key)
        },
      },
      `Open ${app.app_key}`,
    ),
    active && [' ', h('span', { class: 'badge ok' }, 'active')],
    h(
      'small',
      { class: 'muted' },
      ` ${n(c.texts, 'text')} · ${c.pushes} push${c.pushes === 1 ? '' : 'es'} · ${n(c.requests, 'request')}`,
      c.refusals > 0 ? ` (${c.refusals} refused)` : '',
      app.last_request_at ? [' · last request ', time(app.last_request_at)] : ' · no request yet',
    ),
  )
}

function drawApps(operator) {
  const apps = [...listed.values()].sort((a, b) => b.activity - a.activity)
  $('operator-apps').replaceChildren(
    ...(apps.length === 0
      ? [h('li', { class: 'empty' }, 'No app has this prefix.')]
      : apps.map(app => appRow(operator, app))),
  )
}

/** Lists the apps of the prefix typed, then holds a request for those active since, until closed. */
async function followApps(operator) {
  look?.abort()
  const controller = new AbortController()
  look = controller
  const api = createApi(operator)
  const prefix = $('operator-search').value.trim()
  const q = prefix ? `&prefix=${encodeURIComponent(prefix)}` : ''
  const status = $('operator-status')
  try {
    const first = await api.get(`/_sandbox/apps?limit=100${q}`, { signal: controller.signal })
    listed.clear()
    for (const app of first.apps) listed.set(app.app_key, app)
    nextAfter = first.next_after
    status.textContent = `${first.apps.length} app${first.apps.length === 1 ? '' : 's'}${first.apps.length === 100 ? ' (the 100 most recently active)' : ''}; live`
    drawApps(operator)
    while (!controller.signal.aborted) {
      const since = await api.get(`/_sandbox/apps?after=${nextAfter}&wait=${WAIT_MS}&limit=100${q}`, {
        signal: controller.signal,
      })
      for (const app of since.apps) {
        listed.set(app.app_key, app)
        justActive.add(app.app_key)
      }
      nextAfter = since.next_after
      if (since.apps.length > 0) drawApps(operator)
    }
  } catch (err) {
    if (controller.signal.aborted) return
    status.textContent = `Could not list the apps: ${err.message}`
  }
}

/** Opens the switch dialog, with a sentence saying why when there is one. */
export function openSwitch(reason = '') {
  const credentials = signedInAs()
  const operator = credentials?.kind === 'operator'
  $('switch-error').textContent = reason
  $('switch-title').textContent = operator ? 'Open an app' : 'Switch app'
  $('operator-part').hidden = !operator
  $('app-part').hidden = operator
  if (operator) followApps(credentials)
  else
    $('recent-apps').replaceChildren(
      ...recentApps().map(app =>
        h(
          'li',
          null,
          h(
            'button',
            { type: 'button', class: 'link', onclick: () => switchTo(app) },
            `Switch to ${app.app_key}`,
          ),
        ),
      ),
    )
  const dialog = $('switch-app')
  if (!dialog.open) dialog.showModal()
  if (operator) $('operator-search').focus()
}

export function setUpDialogs(open, current) {
  openApp = open
  signedInAs = current
  $('app-button').addEventListener('click', () => openSwitch())
  $('switch-form').addEventListener('submit', async e => {
    e.preventDefault()
    const form = /** @type {any} */ (e.target)
    const credentials = {
      kind: 'app',
      app_key: form.app_key.value.trim(),
      master_secret: form.master_secret.value.trim(),
    }
    if (await switchTo(credentials)) form.reset()
  })
  let typing
  $('operator-search').addEventListener('input', () => {
    clearTimeout(typing)
    typing = setTimeout(() => followApps(signedInAs()), 150)
  })
  for (const id of ['switch-cancel', 'operator-close'])
    $(id).addEventListener('click', () => $('switch-app').close())
  $('switch-app').addEventListener('close', () => {
    look?.abort()
    justActive.clear()
  })
}

/** Asks before something that cannot be undone: resolves true when confirmed. */
export function confirmAction(question, confirmLabel) {
  const dialog = $('confirm')
  $('confirm-text').textContent = question
  $('confirm-ok').textContent = confirmLabel
  dialog.returnValue = ''
  dialog.showModal()
  return new Promise(resolve => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true })
  })
}

// Switching to another app, and confirming what cannot be undone. Both are native <dialog>s:
// focus moves into them, Escape closes them, and the page behind is inert while they are open.

import { createApi } from './api.js'
import { h } from './dom.js'
import { forgetChoice, recentApps, remember } from './session.js'

let startApp

const $ = id => document.getElementById(id)

/** Tries the credentials on GET /_sandbox/app; on success this tab speaks for that app. */
async function switchTo(credentials) {
  const error = $('switch-error')
  error.textContent = ''
  try {
    await createApi(credentials).get('/_sandbox/app')
  } catch (err) {
    error.textContent = `Could not sign in as ${credentials.app_key}: ${err.message}`
    return false
  }
  remember(credentials)
  $('switch-app').close()
  startApp(credentials)
  return true
}

/** Opens the switch dialog, with a sentence saying why when the page could not sign in. */
export function openSwitch(reason = '') {
  $('switch-error').textContent = reason
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
}

export function setUpDialogs(start) {
  startApp = start
  $('app-button').addEventListener('click', () => openSwitch())
  $('switch-form').addEventListener('submit', async e => {
    e.preventDefault()
    const form = e.target
    const credentials = { app_key: form.app_key.value.trim(), master_secret: form.master_secret.value.trim() }
    if (await switchTo(credentials)) form.reset()
  })
  $('switch-cancel').addEventListener('click', () => $('switch-app').close())
  $('switch-back').addEventListener('click', () => {
    forgetChoice()
    location.reload()
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

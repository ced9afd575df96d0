// @ts-check
// Switching apps, signed in as an app: sign in as another (its appKey and masterSecret), or as one
// used recently in this browser. (The operator has the list of every app instead: views/apps.js.)

import { useState } from 'preact/hooks'
import { createApi } from '../lib/api.js'
import { html } from '../lib/html.js'
import { recentApps, signIn } from '../lib/session.js'
import { store } from '../lib/store.js'
import { Modal } from './dialogs.js'

/**
 * @param {{ open: boolean, reason: string, onSwitch: (c: import('../lib/session.js').AppCredentials) => void }} props
 */
export function SwitchDialog({ open, reason, onSwitch }) {
  const [error, setError] = useState('')
  const close = () => {
    setError('')
    store.set({ switcher: { open: false, reason: '' } })
  }

  /** Tries app credentials on GET /_sandbox/app; on success this tab speaks for that app. */
  async function switchTo(credentials) {
    setError('')
    try {
      await createApi(credentials).get('/_sandbox/app')
    } catch (err) {
      setError(`Could not sign in as ${credentials.app_key}: ${err.message}`)
      return false
    }
    signIn(credentials)
    close()
    onSwitch(credentials)
    return true
  }

  async function submit(e) {
    e.preventDefault()
    const form = e.currentTarget
    const credentials = /** @type {const} */ ({
      kind: 'app',
      app_key: form.app_key.value.trim(),
      master_secret: form.master_secret.value.trim(),
    })
    if (await switchTo(credentials)) form.reset()
  }

  return html`<${Modal} id="switch-app" open=${open} labelledBy="switch-title" onClose=${close}>
    <h2 id="switch-title">Switch app</h2>
    <p id="switch-error" class="error" role="alert">${error || reason}</p>
    <form id="switch-form" onSubmit=${submit}>
      <p>
        Sign in as another app with its appKey and masterSecret, as on the API. A new well-formed appKey
        (24 letters or digits) makes a new app.
      </p>
      <label class="field"
        ><span class="label">appKey</span>
        <input name="app_key" required autocomplete="username" spellcheck="false"
      /></label>
      <label class="field"
        ><span class="label">masterSecret</span>
        <input name="master_secret" type="password" required autocomplete="current-password"
      /></label>
      <div class="actions">
        <button type="submit">Switch</button>
        <button type="button" onClick=${close}>Cancel</button>
      </div>
      <h3>Apps used recently in this browser</h3>
      <ul class="plain">
        ${
          open &&
          recentApps().map(
            app =>
              html`<li key=${app.app_key}>
              <button type="button" class="link" onClick=${() => switchTo(app)}>Switch to ${app.app_key}</button>
            </li>`,
          )
        }
      </ul>
    </form>
  <//>`
}

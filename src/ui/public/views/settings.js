// @ts-check
// Faults and settings: arm and disarm faults (/_sandbox/faults), change the app's settings at
// runtime (PATCH /_sandbox/app, checked by the seed file's schema), export and import the app,
// reset it. The form's fields show the app as it stands (their default values follow it live);
// a field the user changed keeps what they typed until it is saved.

import { useState } from 'preact/hooks'
import { confirmAction } from '../components/dialogs.js'
import { act, toast } from '../components/toasts.js'
import { Field } from '../components/values.js'
import { html } from '../lib/html.js'
import { Faults } from './faults.js'

const list = values => (values ?? []).join(', ')
const splitList = text =>
  text
    .split(/[,\n]/)
    .map(s => s.trim())
    .filter(Boolean)

/** What the form says, as a PATCH body: only what differs from the app as it stands. */
function changes(form, app) {
  const f = form.elements
  const body = {}
  const balances = {}
  for (const key of ['balance', 'voice', 'industry', 'market']) {
    const value = f[`balance-${key}`].value === '' ? null : Number(f[`balance-${key}`].value)
    if (value !== app.balances[key]) balances[key] = value
  }
  if (Object.keys(balances).length > 0) body.balances = balances
  for (const key of ['blacklisted', 'sms_enabled'])
    if (f[`app-${key}`].checked !== app[key]) body[key] = f[`app-${key}`].checked
  const url = f['app-callback_url'].value.trim() || null
  if (url !== app.callback_url) body.callback_url = url
  for (const key of ['ip_whitelist', 'sensitive_words', 'unsubscribed']) {
    const values = splitList(f[`app-${key}`].value)
    if (list(values) !== list(app[key])) body[key] = values
  }
  const limits = {}
  for (const key of Object.keys(app.settings.rate_limits)) {
    const value = Number(f[`limit-${key}`].value)
    if (value !== app.settings.rate_limits[key]) limits[key] = value
  }
  const settings = {}
  if (Object.keys(limits).length > 0) settings.rate_limits = limits
  const broadcasts = Number(f['app-broadcasts'].value)
  if (broadcasts !== app.settings.broadcasts_per_day) settings.broadcasts_per_day = broadcasts
  if (Object.keys(settings).length > 0) body.settings = settings
  if (f['dev-frozen'].checked !== app.developer.frozen) body.developer = { frozen: f['dev-frozen'].checked }
  return body
}

const num = (id, value) =>
  html`<input id=${id} name=${id} type="number" min="0" step="1" autocomplete="off" defaultValue=${value ?? ''} />`
const check = (id, label, checked) =>
  html`<label class="check"><input id=${id} name=${id} type="checkbox" defaultChecked=${checked} /> ${label}</label>`
const area = (id, values) =>
  html`<textarea id=${id} name=${id} rows="2" defaultValue=${list(values)}></textarea>`

function SettingsForm({ s, app }) {
  const submit = async e => {
    e.preventDefault()
    const body = changes(e.currentTarget, app)
    if (Object.keys(body).length === 0) return toast('Nothing changed')
    const saved = await act(e.submitter, () => s.session.api.patch('/_sandbox/app', body))
    if (!saved) return
    s.session.data.remember({ app: saved })
    toast(`Saved: ${Object.keys(body).join(', ')}`)
  }
  return html`<form class="stacked" onSubmit=${submit}>
    <fieldset>
      <legend>Balances (empty: no quota allocated)</legend>
      ${['balance', 'voice', 'industry', 'market'].map(k => html`<${Field} label=${k}>${num(`balance-${k}`, app.balances[k])}<//>`)}
    </fieldset>
    <fieldset>
      <legend>Standing</legend>
      ${check('app-blacklisted', 'blacklisted (50036 on /v1, 2003 on /v3)', app.blacklisted)}
      ${check('app-sms_enabled', 'sms_enabled (off: 50008)', app.sms_enabled)}
      ${check('dev-frozen', `developer ${app.developer.dev_key} frozen (50301, push 2007)`, app.developer.frozen)}
    </fieldset>
    <${Field} label="callback_url (checked with the vendor's echostr GET; empty: none)">
      <input id="app-callback_url" name="app-callback_url" type="url" size="40" autocomplete="off"
        defaultValue=${app.callback_url ?? ''} />
    <//>
    <fieldset>
      <legend>Rate limits (calls per minute) and broadcasts</legend>
      ${Object.entries(app.settings.rate_limits).map(([k, v]) => html`<${Field} label=${k}>${num(`limit-${k}`, v)}<//>`)}
      <${Field} label="broadcasts_per_day">${num('app-broadcasts', app.settings.broadcasts_per_day)}<//>
    </fieldset>
    <${Field} label="unsubscribed mobiles (marketing to them: 50024; comma-separated)">
      ${area('app-unsubscribed', app.unsubscribed)}
    <//>
    <${Field} label="ip_whitelist (empty: any address)">${area('app-ip_whitelist', app.ip_whitelist)}<//>
    <${Field} label="sensitive_words (besides the global ones)">${area('app-sensitive_words', app.sensitive_words)}<//>
    <button type="submit">Save settings</button>
  </form>`
}

async function reset(s, button) {
  const appKey = s.session.api.appKey
  const sure = await confirmAction(
    `Reset app ${appKey}? Every message, code, schedule, report, reply, callback, push, device, template and signature it made is removed; its fixtures, settings and real-time clock come back.`,
    'Reset app',
  )
  if (!sure) return
  const answer = await act(button, () => s.session.api.post('/_sandbox/reset'))
  if (!answer) return
  s.session.data.forget()
  toast(`App ${appKey} reset`)
  s.session.data.invalidate()
}

/** GET /_sandbox/app/export, saved by the browser as `<appKey>.json`. */
async function exportApp(s, button) {
  const { api } = s.session
  const saved = await act(button, async () => {
    const res = await fetch('/_sandbox/app/export', { headers: api.headers, cache: 'no-store' })
    if (!res.ok)
      throw new Error(
        `Could not export: ${(await res.json().catch(() => null))?.error?.message ?? `HTTP ${res.status}`}`,
      )
    const url = URL.createObjectURL(await res.blob())
    const link = document.createElement('a')
    link.href = url
    link.download = `${api.appKey}.json`
    link.hidden = true
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    return true
  })
  if (saved) toast(`Exported ${api.appKey} as ${api.appKey}.json`)
}

/** The app as one document: export it, or import one (POST /_sandbox/app/import) once confirmed. */
function DocumentSection({ s }) {
  const [imported, setImported] = useState(/** @type {{ ok?: string, error?: string } | null} */ (null))
  const importApp = async e => {
    const button = e.currentTarget
    const file = /** @type {HTMLInputElement} */ (document.getElementById('import-file')).files?.[0]
    if (!file)
      return setImported({ error: 'Choose a document first (a file GET /_sandbox/app/export made).' })
    const appKey = s.session.api.appKey
    const sure = await confirmAction(
      `Replace everything app ${appKey} holds with the document ${file.name}? What it holds now is removed, as by a reset.`,
      'Import',
    )
    if (!sure) return
    const text = await file.text()
    try {
      button.disabled = true
      const answer = await s.session.api.post('/_sandbox/app/import', text)
      setImported({
        ok: `Imported ${file.name} into ${appKey}: ${answer.rows} rows, ${answer.faults} faults.`,
      })
      s.session.data.forget()
      s.session.data.invalidate()
    } catch (err) {
      setImported({ error: `Could not import ${file.name}: ${err.message}` })
    } finally {
      button.disabled = false
    }
  }
  return html`<section aria-labelledby="document-title">
    <h2 id="document-title">The app's document</h2>
    <p>
      Everything the app holds as one JSON document (GET /_sandbox/app/export): keep it, import it here or into
      another sandbox.
    </p>
    <div class="actions">
      <button type="button" onClick=${e => exportApp(s, e.currentTarget)}>Export app</button>
    </div>
    <div class="actions">
      <label for="import-file">Document to import</label>
      <input id="import-file" type="file" accept="application/json,.json" />
      <button type="button" onClick=${importApp}>Import…</button>
    </div>
    ${
      imported &&
      html`<p id="import-result" class=${imported.ok ? 'ok' : 'error'} role="status">${imported.ok ?? imported.error}</p>`
    }
  </section>`
}

function SettingsView({ s }) {
  const { app } = s.data
  return html`<div class="single">
    <${Faults} s=${s} />
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      ${app ? html`<${SettingsForm} s=${s} app=${app} />` : html`<p class="empty">Loading…</p>`}
    </section>
    <${DocumentSection} s=${s} />
    <section aria-labelledby="reset-title">
      <h2 id="reset-title">Reset</h2>
      <p>Back to the app's first use. Other apps are untouched.</p>
      <button type="button" class="danger" onClick=${e => reset(s, e.currentTarget)}>Reset app…</button>
    </section>
  </div>`
}

export { SettingsView as View }

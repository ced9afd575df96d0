// @ts-check
// Faults and settings: arm and disarm faults (/_sandbox/faults), change the app's settings at
// runtime (PATCH /_sandbox/app, checked by the seed file's schema), reset the app.

import { act, field, h, input, number, toast } from './dom.js'
import { faults } from './faults.js'
import { confirmAction } from './switch.js'

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

function settingsForm(ctx, app) {
  const check = (id, label, checked) =>
    h('label', { class: 'check' }, input(id, { type: 'checkbox', checked }), ` ${label}`)
  const form = h(
    'form',
    {
      class: 'stacked',
      onsubmit: async e => {
        e.preventDefault()
        const body = changes(form, app)
        if (Object.keys(body).length === 0) return toast('Nothing changed')
        const saved = await act(e.submitter, () => ctx.api.patch('/_sandbox/app', body))
        if (!saved) return
        ctx.done(form)
        ctx.state.app = saved
        toast(`Saved: ${Object.keys(body).join(', ')}`)
        ctx.render()
      },
    },
    h(
      'fieldset',
      null,
      h('legend', null, 'Balances (empty: no quota allocated)'),
      ['balance', 'voice', 'industry', 'market'].map(k => field(k, number(`balance-${k}`, app.balances[k]))),
    ),
    h(
      'fieldset',
      null,
      h('legend', null, 'Standing'),
      check('app-blacklisted', 'blacklisted (50036 on /v1, 2003 on /v3)', app.blacklisted),
      check('app-sms_enabled', 'sms_enabled (off: 50008)', app.sms_enabled),
      check(
        'dev-frozen',
        `developer ${app.developer.dev_key} frozen (50301, push 2007)`,
        app.developer.frozen,
      ),
    ),
    field(
      "callback_url (checked with the vendor's echostr GET; empty: none)",
      input('app-callback_url', { type: 'url', value: app.callback_url ?? '', size: 40 }),
    ),
    h(
      'fieldset',
      null,
      h('legend', null, 'Rate limits (calls per minute) and broadcasts'),
      Object.entries(app.settings.rate_limits).map(([k, v]) => field(k, number(`limit-${k}`, v))),
      field('broadcasts_per_day', number('app-broadcasts', app.settings.broadcasts_per_day)),
    ),
    field(
      'unsubscribed mobiles (marketing to them: 50024; comma-separated)',
      h('textarea', { id: 'app-unsubscribed', rows: 2 }, list(app.unsubscribed)),
    ),
    field(
      'ip_whitelist (empty: any address)',
      h('textarea', { id: 'app-ip_whitelist', rows: 2 }, list(app.ip_whitelist)),
    ),
    field(
      'sensitive_words (besides the global ones)',
      h('textarea', { id: 'app-sensitive_words', rows: 2 }, list(app.sensitive_words)),
    ),
    h('button', { type: 'submit' }, 'Save settings'),
  )
  return form
}

async function reset(ctx, button) {
  const appKey = ctx.api.appKey
  const sure = await confirmAction(
    `Reset app ${appKey}? Every message, code, schedule, report, reply, callback, push, device, template and signature it made is removed; its fixtures, settings and real-time clock come back.`,
    'Reset app',
  )
  if (!sure) return
  const answer = await act(button, () => ctx.api.post('/_sandbox/reset'))
  if (!answer) return
  ctx.data.forget()
  toast(`App ${appKey} reset`)
  ctx.data.invalidate()
}

/** GET /_sandbox/app/export, saved by the browser as `<appKey>.json`. */
async function exportApp(ctx, button) {
  const saved = await act(button, async () => {
    const res = await fetch('/_sandbox/app/export', { headers: ctx.api.headers, cache: 'no-store' })
    if (!res.ok)
      throw new Error(
        `Could not export: ${(await res.json().catch(() => null))?.error?.message ?? `HTTP ${res.status}`}`,
      )
    const url = URL.createObjectURL(await res.blob())
    const link = h('a', { href: url, download: `${ctx.api.appKey}.json`, hidden: true })
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    return true
  })
  if (saved) toast(`Exported ${ctx.api.appKey} as ${ctx.api.appKey}.json`)
}

/** The outcome of the last import from this page, shown under its button. */
let imported = null
/** One file input for the page's life: a live re-render moves it, and it keeps the file chosen. */
let fileInput
function importInput() {
  if (!fileInput)
    fileInput = h('input', { id: 'import-file', type: 'file', accept: 'application/json,.json' })
  return fileInput
}

/** POST /_sandbox/app/import with the chosen file, once confirmed: the app then holds exactly it. */
async function importApp(ctx, button) {
  const file = /** @type {HTMLInputElement} */ (document.getElementById('import-file')).files?.[0]
  if (!file) {
    imported = { error: 'Choose a document first (a file GET /_sandbox/app/export made).' }
    return ctx.render()
  }
  const appKey = ctx.api.appKey
  const sure = await confirmAction(
    `Replace everything app ${appKey} holds with the document ${file.name}? What it holds now is removed, as by a reset.`,
    'Import',
  )
  if (!sure) return
  const text = await file.text()
  try {
    button.disabled = true
    const answer = await ctx.api.post('/_sandbox/app/import', text)
    imported = { ok: `Imported ${file.name} into ${appKey}: ${answer.rows} rows, ${answer.faults} faults.` }
    ctx.data.forget()
    ctx.data.invalidate()
  } catch (err) {
    imported = { error: `Could not import ${file.name}: ${err.message}` }
  } finally {
    button.disabled = false
  }
  ctx.render()
}

function documentSection(ctx) {
  return h(
    'section',
    { 'aria-labelledby': 'document-title' },
    h('h2', { id: 'document-title' }, "The app's document"),
    h(
      'p',
      null,
      'Everything the app holds as one JSON document (GET /_sandbox/app/export): keep it, import it here or into another sandbox.',
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: e => exportApp(ctx, e.currentTarget) }, 'Export app'),
    ),
    h(
      'div',
      { class: 'actions' },
      h('label', { for: 'import-file' }, 'Document to import'),
      ' ',
      importInput(),
      ' ',
      h('button', { type: 'button', onclick: e => importApp(ctx, e.currentTarget) }, 'Import…'),
    ),
    imported &&
      h(
        'p',
        { id: 'import-result', class: imported.ok ? 'ok' : 'error', role: 'status' },
        imported.ok ?? imported.error,
      ),
  )
}

export const settingsView = {
  id: 'settings',
  label: 'Faults and settings',
  count: state => state.faults.length,
  render(ctx) {
    const { app } = ctx.state
    return h(
      'div',
      { class: 'single' },
      faults(ctx),
      h(
        'section',
        { 'aria-labelledby': 'settings-title' },
        h('h2', { id: 'settings-title' }, 'Settings'),
        app ? settingsForm(ctx, app) : h('p', { class: 'empty' }, 'Loading…'),
      ),
      documentSection(ctx),
      h(
        'section',
        { 'aria-labelledby': 'reset-title' },
        h('h2', { id: 'reset-title' }, 'Reset'),
        h('p', null, "Back to the app's first use. Other apps are untouched."),
        h(
          'button',
          { type: 'button', class: 'danger', onclick: e => reset(ctx, e.currentTarget) },
          'Reset app…',
        ),
      ),
    )
  },
}

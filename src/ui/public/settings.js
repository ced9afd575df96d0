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

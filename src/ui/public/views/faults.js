// @ts-check
// Faults: the next matching /v1 or /v3 requests of the app fail as the vendor would (/_sandbox/faults).

import { act, toast } from '../components/toasts.js'
import { Field } from '../components/values.js'
import { html } from '../lib/html.js'

const input = (id, props = {}) => html`<input id=${id} name=${id} autocomplete="off" ...${props} />`
const number = (id, value = undefined) =>
  input(id, { type: 'number', min: 0, step: 1, defaultValue: value ?? '' })

function FaultForm({ s }) {
  const submit = async e => {
    e.preventDefault()
    const form = e.currentTarget
    const f = form.elements
    const body = { path: f['fault-path'].value.trim() || '*', times: Number(f['fault-times'].value || 1) }
    if (f['fault-method'].value) body.method = f['fault-method'].value
    for (const [key, name] of [
      ['code', 'fault-code'],
      ['status', 'fault-status'],
      ['delay_ms', 'fault-delay'],
    ])
      if (f[name].value !== '') body[key] = Number(f[name].value)
    if (f['fault-message'].value) body.message = f['fault-message'].value
    if (f['fault-match-value'].value.trim())
      body.match = { [f['fault-match'].value]: f['fault-match-value'].value.trim() }
    const armed = await act(e.submitter, () => s.session.api.post('/_sandbox/faults', body))
    if (!armed) return
    form.reset()
    toast(`Fault ${armed.id} armed on ${armed.path}`)
    s.session.data.invalidate(['app'])
  }
  return html`<form class="stacked" onSubmit=${submit}>
    <${Field} label="method">
      <select id="fault-method" name="fault-method">
        ${['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map(m => html`<option value=${m}>${m || 'any'}</option>`)}
      </select>
    <//>
    <${Field} label="path">
      ${input('fault-path', { placeholder: '/v1/messages, /v3/push, /v1/codes/:msg_id/valid or *', size: 32 })}
    <//>
    <${Field} label="code (the vendor error)">${number('fault-code')}<//>
    <${Field} label="HTTP status (for an undocumented code)">${number('fault-status')}<//>
    <${Field} label="message">${input('fault-message')}<//>
    <${Field} label="times">${number('fault-times', 1)}<//>
    <${Field} label="delay_ms (real time)">${number('fault-delay')}<//>
    <${Field} label="only for">
      <select id="fault-match" name="fault-match">
        <option value="mobile">mobile</option>
        <option value="registration_id">registration_id</option>
      </select>
    <//>
    <${Field} label="that recipient (empty: every request)">${input('fault-match-value')}<//>
    <button type="submit">Arm fault</button>
  </form>`
}

export function Faults({ s }) {
  const armed = s.data.faults
  const disarm = async e => {
    const answer = await act(e.currentTarget, () => s.session.api.del('/_sandbox/faults'))
    if (answer) toast(`${answer.cleared} faults disarmed`)
    s.session.data.invalidate(['app'])
  }
  return html`<section aria-labelledby="faults-title">
    <h2 id="faults-title">Faults</h2>
    <p class="muted">
      The next matching /v1 or /v3 requests of this app fail with the vendor error, before anything is stored or
      charged.
    </p>
    ${
      armed.length === 0
        ? html`<p class="empty">No fault armed.</p>`
        : html`<ul class="plain" id="armed-faults">
          ${armed.map(
            f => html`<li key=${f.id} data-fault-id=${f.id}>
              <code>${`${f.method ?? 'any'} ${f.path}`}</code>
              ${f.code !== null && ` → ${f.code}${f.status ? ` (HTTP ${f.status})` : ''}`}
              ${f.delay_ms > 0 && ` after ${f.delay_ms} ms`}
              ${
                f.match &&
                ` only for ${Object.entries(f.match)
                  .map(([k, v]) => `${k} ${v}`)
                  .join('')}`
              }
              ${` · ${f.remaining} left`}
            </li>`,
          )}
        </ul>`
    }
    ${armed.length > 0 && html`<button type="button" onClick=${disarm}>Disarm all faults</button>`}
    <details class="register">
      <summary>Arm a fault</summary>
      <${FaultForm} s=${s} />
    </details>
  </section>`
}

// @ts-check
// Templates and signatures: their review state (JSMS §2.9, §2.10), decided in one click as the
// vendor's reviewer would (POST /_sandbox/sms/templates/{temp_id}/review and /signs/{sign_id}/review).

import { useRef } from 'preact/hooks'
import { act, toast } from '../components/toasts.js'
import { Time } from '../components/values.js'
import { matches } from '../lib/format.js'
import { html } from '../lib/html.js'
import { REVIEW_STATUSES, TEMPLATE_TYPES } from '../lib/labels.js'

const STATUS_CLASS = { 0: 'warn', 1: 'ok', 2: 'bad' }

/** Approve, or reject with a reason: `what` is "template 4" or "signature 2". */
function Decide({ s, what, path, row }) {
  const reasonId = `reason-${path.replace(/\W+/g, '-')}`
  const reason = useRef(/** @type {HTMLInputElement | null} */ (null))
  const send = async (button, status) => {
    const body = { status }
    if (status === 2) body.refuse_reason = reason.current?.value ?? ''
    const answer = await act(button, () => s.session.api.post(path, body))
    if (!answer) return
    if (reason.current) reason.current.value = ''
    toast(`${what} ${status === 1 ? 'approved' : 'rejected'}`)
    s.session.data.invalidate(['reviews', 'callbacks'])
  }
  return html`<div class="decide">
    ${
      row.status !== 1 &&
      html`<button type="button" onClick=${e => send(e.currentTarget, 1)} aria-label=${`Approve ${what}`}>Approve</button>`
    }
    <label for=${reasonId} class="visually-hidden">Reason for rejecting ${what}</label>
    <input id=${reasonId} ref=${reason} placeholder="reason (refuse_reason)" size="16" autocomplete="off" />
    <button type="button" onClick=${e => send(e.currentTarget, 2)} aria-label=${`Reject ${what}`}>Reject</button>
  </div>`
}

function Status({ row }) {
  return html`<td data-label="status">
    <span class=${`badge ${STATUS_CLASS[row.status]}`}>${REVIEW_STATUSES[row.status] ?? row.status}</span>
    ${row.status === 0 && row.review_at && html`<br /><small>approved by the clock at </small><${Time} at=${row.review_at} />`}
    ${row.refuse_reason && html`<br /><small>refuse_reason: ${row.refuse_reason}</small>`}
  </td>`
}

/** A table whose cells say their column (`data-label`), so that a narrow window can stack them. */
const Table = ({ caption, head, children }) =>
  html`<div class="table-wrap">
    <table class="stack">
      <caption>${caption}</caption>
      <thead>
        <tr>
          ${head.map(t => html`<th scope="col">${t}</th>`)}
        </tr>
      </thead>
      <tbody>${children}</tbody>
    </table>
  </div>`

function ReviewsView({ s }) {
  const templates = s.data.templates.filter(t => matches(s.search, t.temp_id, t.template, t.remark))
  const signs = s.data.signs.filter(x => matches(s.search, x.sign_id, x.sign, x.remark))
  return html`<section class="single" aria-labelledby="reviews-title">
    <h2 id="reviews-title">Templates and signatures</h2>
    <${Table} caption="Templates" head=${['temp_id', 'type', 'template', 'status', 'decision']}>
      ${templates.map(
        t => html`<tr key=${t.temp_id} data-temp-id=${t.temp_id}>
          <td data-label="temp_id">${String(t.temp_id)}</td>
          <td data-label="type">${TEMPLATE_TYPES[t.type] ?? t.type}</td>
          <td data-label="template">${t.template}${t.remark && html`<small class="muted"> (${t.remark})</small>`}</td>
          <${Status} row=${t} />
          <td data-label="decision">
            <${Decide} s=${s} what=${`template ${t.temp_id}`} path=${`/_sandbox/sms/templates/${t.temp_id}/review`} row=${t} />
          </td>
        </tr>`,
      )}
    <//>
    <${Table} caption="Signatures" head=${['sign_id', 'signature', 'status', 'decision']}>
      ${signs.map(
        x => html`<tr key=${x.sign_id} data-sign-id=${x.sign_id}>
          <td data-label="sign_id">${String(x.sign_id)}</td>
          <td data-label="signature">${x.sign}${x.is_default === 1 && html` <span class="badge">default</span>`}</td>
          <${Status} row=${x} />
          <td data-label="decision">
            <${Decide} s=${s} what=${`signature ${x.sign_id}`} path=${`/_sandbox/sms/signs/${x.sign_id}/review`} row=${x} />
          </td>
        </tr>`,
      )}
    <//>
  </section>`
}

export { ReviewsView as View }

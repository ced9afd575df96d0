// @ts-check
// Callbacks: every POST the sandbox made (or will make) to the app's callback_url (jsms-api.md §6),
// its payload, each attempt with the receiver's answer, and the next retry.

import { Time } from '../components/values.js'
import { json, matches } from '../lib/format.js'
import { html } from '../lib/html.js'
import { CALLBACK_TYPES } from '../lib/labels.js'

const STATE_CLASS = { delivered: 'ok', failed: 'bad', pending: 'warn', sending: 'warn' }

function Attempt({ a }) {
  const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300
  return html`<tr>
    <td>${String(a.attempt)}</td>
    <td><${Time} at=${a.at} /></td>
    <td><code>${a.url}</code></td>
    <td class=${ok ? 'ok' : 'bad'}>${a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`}</td>
    <td>${a.error ?? ''}</td>
  </tr>`
}

function Callback({ c }) {
  return html`<article class="card" data-callback-id=${c.id}>
    <header>
      <span class=${`badge ${STATE_CLASS[c.state] ?? ''}`}>${c.state}</span>
      ${` ${c.type} (${CALLBACK_TYPES[c.type] ?? 'callback'}) · queued `}<${Time} at=${c.created_at} />
      ${c.next_attempt_at && html` · next attempt <${Time} at=${c.next_attempt_at} />`}
    </header>
    <details>
      <summary>Payload (data)</summary>
      <pre>${json(c.data)}</pre>
    </details>
    ${
      c.attempts.length === 0
        ? html`<p class="muted">Not attempted yet.</p>`
        : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">Attempts of callback ${c.id}</caption>
            <thead>
              <tr>
                ${['#', 'at', 'url', 'answer', 'error'].map(t => html`<th scope="col">${t}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${c.attempts.map(a => html`<${Attempt} key=${a.attempt} a=${a} />`)}
            </tbody>
          </table>
        </div>`
    }
  </article>`
}

function CallbacksView({ s }) {
  const { callbacks, callbackUrl } = s.data
  const shown = callbacks.filter(c =>
    matches(s.search, c.type, c.state, c.data, ...c.attempts.map(a => a.url)),
  )
  return html`<section class="single" aria-labelledby="callbacks-title">
    <h2 id="callbacks-title">Callbacks</h2>
    <p>
      callback_url:${' '}
      ${callbackUrl ? html`<code>${callbackUrl}</code>` : 'none (reports and replies wait for GET /v1/report and /v1/reply)'}
      ${' · '}<a href="#/settings">change it</a>
    </p>
    <p class="muted">A failed attempt is retried after 3 minutes, 1 hour and 12 hours of the app clock.</p>
    ${shown.length === 0 && html`<p class="empty">No callback.</p>`}
    ${shown.map(c => html`<${Callback} key=${c.id} c=${c} />`)}
  </section>`
}

export { CallbacksView as View }

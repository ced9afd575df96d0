// @ts-check
// Scheduled: the app's SMS tasks (POST /v1/schedule) and JPush schedules (/v3/schedules), their
// state, and what each fired: its messages, each a link to the phone that got it.

import { useEffect, useRef } from 'preact/hooks'
import { Copyable, Time } from '../components/values.js'
import { json, matches } from '../lib/format.js'
import { html } from '../lib/html.js'

const STATE_CLASS = {
  pending: 'warn',
  active: 'warn',
  sent: 'ok',
  expired: 'muted',
  disabled: 'muted',
  deleted: 'muted',
}
const Badge = ({ state }) => html`<span class=${`badge ${STATE_CLASS[state] ?? ''}`}>${state}</span>`

function Recipient({ r, fired }) {
  return html`<li>
    <a href=${fired && !r.error ? `#/phones/${r.mobile}/${r.msg_id}` : `#/phones/${r.mobile}`}>${r.mobile}</a>
    ${' · msg_id '}<${Copyable} value=${r.msg_id} what="msg_id" />
    ${
      r.error
        ? html`<span class="bad"> · refused when it fired: ${r.error.message} (${r.error.code})</span>`
        : fired && ' · sent'
    }
    ${Object.keys(r.temp_para).length > 0 && html`<span class="muted"> · temp_para ${JSON.stringify(r.temp_para)}</span>`}
  </li>`
}

function SmsTask({ t, highlighted }) {
  const fired = t.state === 'sent'
  return html`<article class=${`card${highlighted ? ' highlight' : ''}`} id=${`schedule-${t.schedule_id}`} data-schedule-id=${t.schedule_id}>
    <header>
      <${Badge} state=${t.state} />
      ${` send_time ${t.send_time} · template ${t.temp_id}${t.batch ? ' · batch' : ''}${t.tag ? ` · tag ${t.tag}` : ''}`}
    </header>
    <p class="muted">schedule_id <code>${t.schedule_id}</code>${fired && html` · fired <${Time} at=${t.sent_at} />`}</p>
    <ul class="plain">
      ${t.recipients.map(r => html`<${Recipient} key=${r.msg_id} r=${r} fired=${fired} />`)}
    </ul>
  </article>`
}

function PushTask({ t }) {
  return html`<article class="card" data-schedule-id=${t.schedule_id}>
    <header>
      <${Badge} state=${t.state} />
      ${` ${t.name} · ${t.kind}`}${t.next_fire_time && html` · next <${Time} at=${t.next_fire_time} />`}
    </header>
    <p class="muted">schedule_id <code>${t.schedule_id}</code></p>
    <details>
      <summary>trigger and push</summary>
      <pre>${json({ trigger: t.trigger, push: t.push })}</pre>
    </details>
    ${
      t.firings.length > 0 &&
      html`<ul class="plain">
      ${t.firings.map(
        f => html`<li>
          fired <${Time} at=${f.fire_time} />
          ${f.msg_id && html` · msg_id <${Copyable} value=${f.msg_id} what="msg_id" />`}
          ${f.error && html`<span class="bad"> · ${f.error.message} (${f.error.code})</span>`}
        </li>`,
      )}
    </ul>`
    }
  </article>`
}

function ScheduledView({ s }) {
  const [selected = ''] = s.route.args
  const sms = s.data.smsSchedules.filter(t =>
    matches(s.search, t.schedule_id, t.send_time, t.tag, ...t.recipients),
  )
  const push = s.data.pushSchedules.filter(t => matches(s.search, t.schedule_id, t.name, t.firings, t.push))
  // Scrolled to once per link followed, so that live updates do not pull the page back.
  const root = useRef(/** @type {HTMLDivElement | null} */ (null))
  const scrolledTo = useRef('')
  const found = sms.some(t => t.schedule_id === selected)
  useEffect(() => {
    if (!selected || scrolledTo.current === selected || !found) return
    scrolledTo.current = selected
    root.current
      ?.querySelector(`[data-schedule-id="${CSS.escape(selected)}"]`)
      ?.scrollIntoView({ block: 'nearest' })
  }, [selected, found])
  return html`<div class="single" ref=${root}>
    <section aria-labelledby="sms-schedules-title">
      <h2 id="sms-schedules-title">SMS schedules</h2>
      <p class="muted">send_time is Beijing time. Move the clock past it to fire a task.</p>
      ${sms.length === 0 && html`<p class="empty">No scheduled SMS.</p>`}
      ${sms.map(t => html`<${SmsTask} key=${t.schedule_id} t=${t} highlighted=${t.schedule_id === selected} />`)}
    </section>
    <section aria-labelledby="push-schedules-title">
      <h2 id="push-schedules-title">Push schedules</h2>
      ${push.length === 0 && html`<p class="empty">No push schedule.</p>`}
      ${push.map(t => html`<${PushTask} key=${t.schedule_id} t=${t} />`)}
    </section>
  </div>`
}

export { ScheduledView as View }

// @ts-check
// Devices: every push device of the app, and what each received, drawn as its platform shows it:
// a notification in the system's shade, a custom message (JPush "message") only to the app.

import { useEffect, useState } from 'preact/hooks'
import { act, toast } from '../components/toasts.js'
import { Copyable, Field, Time } from '../components/values.js'
import { concernsDevice, Warnings } from '../components/warnings.js'
import { json, matches } from '../lib/format.js'
import { html } from '../lib/html.js'
import { PLATFORMS } from '../lib/labels.js'
import { callOf } from '../lib/route.js'

/** An iOS alert is a string or `{title, subtitle, body}` (jpush-api.md §5.3). */
function alertParts(n) {
  if (n && typeof n.alert === 'object' && n.alert !== null)
    return { title: n.alert.title, subtitle: n.alert.subtitle, body: n.alert.body }
  return { title: n?.title, body: n?.alert }
}

/** The makers' channels a device can register with (POST /_sandbox/push/devices `channel`). */
const CHANNELS = ['xiaomi', 'huawei', 'honor', 'oppo', 'vivo', 'meizu', 'fcm', 'hmos']

const Extras = ({ extras }) => html`<details><summary>extras</summary><pre>${json(extras)}</pre></details>`

function NotificationCard({ device, n }) {
  const { title, subtitle, body } = alertParts(n)
  const extras = n.extras && Object.keys(n.extras).length > 0
  return html`<div class=${`notification platform-${device.platform}`}>
    <p class="app-name">${PLATFORMS[device.platform] ?? device.platform} notification</p>
    ${title && html`<p class="title">${title}</p>`}
    ${subtitle && html`<p class="subtitle">${subtitle}</p>`}
    <p class="body">${body ?? ''}</p>
    ${n.big_text && html`<p class="body">${n.big_text}</p>`}
    ${
      (n.badge !== undefined || n.badge_set_num !== undefined || n.badge_add_num !== undefined) &&
      html`<p class="muted">badge ${n.badge ?? n.badge_set_num ?? `+${n.badge_add_num}`}</p>`
    }
    ${n.sound !== undefined && html`<p class="muted">sound ${typeof n.sound === 'string' ? n.sound : json(n.sound)}</p>`}
    ${extras && html`<${Extras} extras=${n.extras} />`}
  </div>`
}

const MessageCard = ({ message }) =>
  html`<div class="custom-message">
    <p class="app-name">Custom message (to the app, not shown by the system)</p>
    ${message.title && html`<p class="title">${message.title}</p>`}
    <p class="body">${String(message.msg_content ?? '')}</p>
    ${message.content_type && html`<p class="muted">content_type ${message.content_type}</p>`}
    ${message.extras && html`<${Extras} extras=${message.extras} />`}
  </div>`

/** A push as the device got it, and the click that opens it. */
function Received({ s, device, p }) {
  const key = `${p.msg_id}/${device.registration_id}`
  const click = s.data.clicks.get(key)
  const open = async e => {
    const answer = await act(e.currentTarget, () =>
      s.session.api.post(`/_sandbox/push/messages/${p.msg_id}/clicks`, {
        registration_id: device.registration_id,
      }),
    )
    if (!answer) return
    s.session.data.remember({ clicks: new Map(s.data.clicks).set(key, answer) })
    toast(`Opened push ${p.msg_id} on ${device.registration_id}`)
    s.session.data.invalidate(['push'])
  }
  return html`<article class="push" data-msg-id=${p.msg_id}>
    ${p.notification && html`<${NotificationCard} device=${device} n=${p.notification} />`}
    ${p.message && html`<${MessageCard} message=${p.message} />`}
    <footer class="meta">
      Received <${Time} at=${p.received_at} /> · msg_id <${Copyable} value=${p.msg_id} what="msg_id" /> ·${' '}
      <a href=${callOf(p.msg_id)}>the call that pushed it</a>
      ${p.route && html` · came by <span class="route" data-route=${p.route}>${p.route}</span>`}
      ${p.alias && ` · to alias ${p.alias}`}
      ${p.withdrawn_at && html` · withdrawn <${Time} at=${p.withdrawn_at} />`}
      ${p.sms_msg_id && html` · SMS fallback <a href=${`#/phones/${device.mobile}/${p.sms_msg_id}`}>${p.sms_msg_id}</a>`}
    </footer>
    <${Warnings} warnings=${(p.warnings ?? []).filter(w => concernsDevice(w, device))} />
    ${
      click
        ? html`<p class="ok">Opened (clicked) at <${Time} at=${click.clicked_at} /></p>`
        : html`<button type="button" onClick=${open} aria-label=${`Open push ${p.msg_id} (click)`}>Open (click)</button>`
    }
  </article>`
}

/**
 * The pushes that targeted the device and have not reached it (waiting, expired, withdrawn): where
 * each went (route) and why it did not arrive (reason), as docs/push.md "How a push reaches a phone" says.
 */
function NotReceived({ s, device }) {
  const [missed, setMissed] = useState(/** @type {any[]} */ ([]))
  // Read again with each read of the pushes (a push that expired at once changes no count).
  const pushes = s.data.pushes
  useEffect(() => {
    let live = true
    s.session.api
      .get(`/_sandbox/push/devices/${device.registration_id}/deliveries`)
      .then(answer => live && setMissed(answer.deliveries.filter(d => d.status !== 'delivered')))
      .catch(() => live && setMissed([]))
    return () => {
      live = false
    }
  }, [device.registration_id, device.online, pushes])
  if (missed.length === 0) return null
  return html`<h3>Not received (${missed.length})</h3>
    <ul class="not-received">
      ${missed.map(
        d => html`<li key=${d.msg_id} data-msg-id=${d.msg_id}>
          msg_id <${Copyable} value=${d.msg_id} what="msg_id" /> · ${d.status} · route${' '}
          <span class="route">${d.route ?? 'none'}</span> · why not <span class="reason">${d.reason ?? '—'}</span>
          <${Warnings} warnings=${(d.warnings ?? []).filter(w => concernsDevice(w, device))} />
        </li>`,
      )}
    </ul>`
}

function Detail({ s, device }) {
  const pushes = s.data.pushes.filter(p => p.registration_id === device.registration_id)
  const toggle = async e => {
    const online = !device.online
    const answer = await act(e.currentTarget, () =>
      s.session.api.patch(`/_sandbox/push/devices/${device.registration_id}`, { online }),
    )
    if (!answer) return
    toast(`${device.registration_id} is ${online ? `online (${answer.delivered} delivered)` : 'offline'}`)
    s.session.data.invalidate(['push', 'sms'])
  }
  return html`<section class="detail" aria-labelledby="device-title">
    <h2 id="device-title">${PLATFORMS[device.platform] ?? device.platform} device</h2>
    <dl class="facts">
      <dt>registration_id</dt>
      <dd><${Copyable} value=${device.registration_id} what="registration_id" /></dd>
      <dt>alias</dt>
      <dd>${device.alias ?? '—'}</dd>
      <dt>tags</dt>
      <dd>${device.tags.join(', ') || '—'}</dd>
      <dt>mobile</dt>
      <dd>${device.mobile ? html`<a href=${`#/phones/${device.mobile}`}>${device.mobile}</a>` : '—'}</dd>
      <dt>channel</dt>
      <dd class="channel">${device.channel ?? 'none: the JPush connection only'}</dd>
      ${
        device.platform === 'ios' &&
        html`<dt>APNs environment</dt>
          <dd class="apns-environment">${device.apns_environment ?? '—'}</dd>`
      }
      <dt>state</dt>
      <dd>
        ${device.online ? 'online' : 'offline'}
        ${device.last_online_time && html` · last online <${Time} at=${device.last_online_time} />`}
      </dd>
    </dl>
    <button type="button" onClick=${toggle}>${device.online ? 'Take offline' : 'Bring online'}</button>
    <${NotReceived} s=${s} device=${device} />
    <h3>Received (${pushes.length})</h3>
    ${pushes.length === 0 && html`<p class="empty">Nothing received yet: pushes appear here as they are delivered.</p>`}
    <div class="pushes">
      ${pushes.map(p => html`<${Received} key=${p.msg_id} s=${s} device=${device} p=${p} />`)}
    </div>
  </section>`
}

function RegisterForm({ s }) {
  const submit = async e => {
    e.preventDefault()
    const form = e.currentTarget
    const tags = form.tags.value
      .split(',')
      .map(t => t.trim())
      .filter(Boolean)
    const body = { platform: form.platform.value, online: form.online.checked, tags }
    // The twin (docs/push.md "How a push reaches a phone"): blank keeps the platform's default.
    if (form.channel.value) body.channel = form.channel.value
    if (form.apns_environment.value) body.apns_environment = form.apns_environment.value
    if (form.alias.value.trim()) body.alias = form.alias.value.trim()
    if (form.mobile.value.trim()) body.mobile = form.mobile.value.trim()
    const device = await act(e.submitter, () => s.session.api.post('/_sandbox/push/devices', body))
    if (!device) return
    form.reset()
    location.hash = `#/devices/${device.registration_id}`
    s.session.data.invalidate(['push'])
  }
  return html`<details class="register">
    <summary>Register a device</summary>
    <form class="stacked" onSubmit=${submit}>
      <${Field} label="platform">
        <select id="new-platform" name="platform">
          ${Object.entries(PLATFORMS).map(([v, t]) => html`<option value=${v}>${t}</option>`)}
        </select>
      <//>
      <${Field} label="alias"><input id="new-alias" name="alias" autocomplete="off" /><//>
      <${Field} label="tags (comma-separated)"><input id="new-tags" name="tags" autocomplete="off" /><//>
      <${Field} label="mobile (for SMS fallback)">
        <input id="new-mobile" name="mobile" inputmode="tel" autocomplete="off" />
      <//>
 <${Field} label="maker channel (Android, HarmonyOS)">
        <select id="new-channel" name="channel">
          <option value="">none (JPush only; HarmonyOS: hmos)</option>
          ${CHANNELS.map(c => html`<option value=${c}>${c}</option>`)}
        </select>
      <//>
      <${Field} label="APNs environment (iOS)">
        <select id="new-apns-environment" name="apns_environment">
          <option value="">production (default)</option>
          <option value="development">development</option>
        </select>
      <//>
      <label class="check"><input id="new-online" name="online" type="checkbox" defaultChecked /> online</label>
      <button type="submit">Register device</button>
    </form>
  </details>`
}

function DevicesView({ s }) {
  const [selected] = s.route.args
  const received = rid => s.data.pushes.filter(p => p.registration_id === rid)
  const shown = s.data.devices.filter(d =>
    matches(
      s.search,
      d.registration_id,
      d.alias,
      d.mobile,
      d.platform,
      ...d.tags,
      ...received(d.registration_id),
    ),
  )
  const device = s.data.devices.find(d => d.registration_id === selected)
  return html`<div class="split">
    <section class="list" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      <${RegisterForm} s=${s} />
      ${shown.length === 0 && html`<p class="empty">No device matches.</p>`}
      <ul class="items">
        ${shown.map(
          d => html`<li key=${d.registration_id}>
            <a href=${`#/devices/${d.registration_id}`} aria-current=${d.registration_id === selected ? 'true' : null}>
              <strong>${d.registration_id}</strong>
              <span class=${`badge ${d.online ? 'ok' : 'muted'}`}>${d.online ? 'online' : 'offline'}</span>
              <span class="preview">
                ${PLATFORMS[d.platform] ?? d.platform}${d.channel && ` · ${d.channel}`}${
                  d.apns_environment && ` · APNs ${d.apns_environment}`
                }${d.alias && ` · alias ${d.alias}`}${
                  d.tags.length > 0 && ` · tags ${d.tags.join(', ')}`
                } · ${received(d.registration_id).length} received
              </span>
            </a>
          </li>`,
        )}
      </ul>
    </section>
    ${
      device
        ? html`<${Detail} s=${s} device=${device} />`
        : html`<p class="detail empty">${selected ? `No device ${selected}.` : 'Choose a device to see what it received.'}</p>`
    }
  </div>`
}

export { DevicesView as View }

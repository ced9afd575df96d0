// @ts-check
// Phones: one conversation per mobile, as a phone's messages app shows it — every SMS the app sent
// it (signature, kind, the code with a copy button, the delivery report) and the phone's replies.

import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { act, toast } from '../components/toasts.js'
import { Copyable, Field, Time } from '../components/values.js'
import { Warnings } from '../components/warnings.js'
import { matches } from '../lib/format.js'
import { html } from '../lib/html.js'
import { messageKind, REPORT_STATUSES, reportText } from '../lib/labels.js'
import { callOf } from '../lib/route.js'

// One text as the phone shows it: its kind and signature, the code marked with a copy button and
// its state, its delivery report (or the status it will get, chosen here); the phone's replies,
// and the box to send one.

/** Verified, expired, or valid until when (its expiry read against the app's clock). */
function CodeState({ data, m }) {
  const code = data.codeOf.get(m.msg_id)
  if (!code) return null
  if (code.verified) return html`<span class="badge ok code-state">verified</span>`
  const clock = data.app?.clock
  const now = clock ? clock.now + (Date.now() - data.clockReadAt) : Date.now()
  if (Date.parse(code.expires_at) <= now) return html`<span class="badge muted code-state">expired</span>`
  return html`<span class="badge warn code-state">not verified yet · valid until <${Time} at=${code.expires_at} /></span>`
}

/** The text with its code marked, so that the eye finds it at once. */
function withCode(content, code) {
  const at = code ? content.indexOf(code) : -1
  if (at < 0) return content
  return [content.slice(0, at), html`<mark>${code}</mark>`, content.slice(at + code.length)]
}

/** The delivery report, or (folded until asked for) the status the report will have. */
function Report({ s, m }) {
  const report = s.data.reportOf.get(m.msg_id)
  const chosen = s.data.steered.get(m.msg_id)
  const [status, setStatus] = useState(String(chosen?.status ?? 4001))
  if (report)
    return html`<span class=${report.status === 4001 ? 'ok' : 'bad'}>
      Delivery report: ${reportText(report.status)} at <${Time} at=${report.receive_time} />
    </span>`
  const id = `report-${m.msg_id}`
  const submit = async e => {
    e.preventDefault()
    const answer = await act(e.submitter, () =>
      s.session.api.post('/_sandbox/sms/reports', { msg_id: m.msg_id, status: Number(status) }),
    )
    if (!answer) return
    s.session.data.remember({ steered: new Map(s.data.steered).set(m.msg_id, answer) })
    toast(`The report of ${m.msg_id} will say ${reportText(Number(status))}`)
  }
  return html`<details>
    <summary>${chosen ? `Report due: ${reportText(chosen.status)}` : 'No delivery report yet: choose its status'}</summary>
    <form class="inline" onSubmit=${submit}>
      <label for=${id}>Its status</label>
      <select id=${id} name="status" value=${status} onChange=${e => setStatus(e.currentTarget.value)}>
        ${Object.entries(REPORT_STATUSES).map(([v, text]) => html`<option value=${v}>${v} ${text}</option>`)}
      </select>
      <button type="submit">Set report</button>
    </form>
  </details>`
}

function Sms({ s, m, highlighted }) {
  const { templates, signs } = s.data
  const sign = signs.find(x => x.sign_id === m.sign_id)
  const kind = messageKind(m, templates)
  return html`<article class=${`sms incoming${highlighted ? ' highlight' : ''}`} id=${`msg-${m.msg_id}`} data-msg-id=${m.msg_id}>
    <header>
      <span class=${`badge kind-${kind.replace(/\W+/g, '-')}`}>${kind}</span>
      ${sign && html`<span> signature ${sign.sign}</span>`}
      ${m.temp_id !== null && html`<span> · template ${m.temp_id}</span>`}
      ${m.schedule_id && html`<a href=${`#/scheduled/${m.schedule_id}`}> · schedule ${m.schedule_id.slice(0, 8)}…</a>`}
    </header>
    <p class="text">${withCode(m.content, m.code)}</p>
    ${
      m.code &&
      html`<p class="code">Code <${Copyable} value=${m.code} what="code" label="Copy code" /> <${CodeState} data=${s.data} m=${m} /></p>`
    }
    <footer>
      <${Time} at=${m.created_at} /> · msg_id <${Copyable} value=${m.msg_id} what="msg_id" /> · ${m.units} billed ·${' '}
      <a href=${callOf(m.msg_id)}>the call that sent it</a>
    </footer>
    <${Warnings} warnings=${m.warnings} />
    <div class="report"><${Report} s=${s} m=${m} /></div>
  </article>`
}

const Reply = ({ r }) =>
  html`<article class="sms outgoing">
    <p class="text">${r.content}</p>
    <footer>Reply · <${Time} at=${r.reply_time} /></footer>
  </article>`

/** The phone's side: a reply typed here reaches the app as the carrier would deliver it. */
function Composer({ s, mobile }) {
  const send = async (button, content, form) => {
    const answer = await act(button, () => s.session.api.post('/_sandbox/sms/replies', { mobile, content }))
    if (!answer) return
    form?.reset()
    if (answer.unsubscribed) toast(`${mobile} unsubscribed from the app's marketing messages`)
    s.session.data.invalidate(['sms', 'callbacks', 'app'])
  }
  return html`<form class="composer" onSubmit=${e => {
    e.preventDefault()
    send(e.submitter, e.currentTarget.content.value, e.currentTarget)
  }}>
    <${Field} label=${`Reply from ${mobile}`}>
      <input id="reply-content" name="content" required autocomplete="off" />
    <//>
    <div class="actions">
      <button type="submit">Send reply</button>
      <button type="button" onClick=${e => send(e.currentTarget, 'TD')}>Reply TD (unsubscribe)</button>
    </div>
  </form>`
}

// The list of phones and the open one.

/** Conversations by mobile: messages and replies, oldest first, and the time of the latest. */
function conversations(data) {
  const byMobile = new Map()
  const of = mobile => {
    if (!byMobile.has(mobile)) byMobile.set(mobile, { mobile, items: [], last: '' })
    return byMobile.get(mobile)
  }
  for (const m of data.messages) of(m.mobile).items.push({ at: m.created_at, seq: m.seq, message: m })
  for (const r of data.replies) of(r.mobile).items.push({ at: r.reply_time, seq: r.seq, reply: r })
  for (const c of byMobile.values()) {
    // In time order; the seq orders what happened in the same millisecond.
    c.items.sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq)
    c.last = c.items.at(-1)?.at ?? ''
  }
  return byMobile
}

const searchable = c =>
  c.items.flatMap(i =>
    i.message ? [i.message.msg_id, i.message.content, i.message.code] : [i.reply.content],
  )

/**
 * The open phone's texts. It follows new texts while scrolled to its end; otherwise it stays where
 * it is. A link to one message (from a schedule) shows that message first.
 */
function Thread({ s, mobile, conversation }) {
  const [, msgId] = s.route.args
  const unsubscribed = s.data.app?.unsubscribed?.includes(mobile)
  const items = conversation?.items ?? []
  const box = useRef(/** @type {HTMLDivElement | null} */ (null))
  const place = useRef({ key: '', stick: true })
  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const key = s.route.args.join('/')
    if (place.current.key !== key && s.data.loaded.has('sms')) {
      const target =
        msgId && /** @type {HTMLElement | null} */ (el.querySelector(`[data-msg-id="${CSS.escape(msgId)}"]`))
      place.current = { key, stick: !target }
      el.scrollTop = target ? target.offsetTop - el.offsetTop - 8 : el.scrollHeight
    } else if (place.current.stick) el.scrollTop = el.scrollHeight
  })
  const onScroll = e => {
    const el = e.currentTarget
    place.current.stick = el.scrollTop + el.clientHeight >= el.scrollHeight - 24
  }
  return html`<section class="detail" aria-labelledby="thread-title">
    <h2 id="thread-title">Phone ${mobile}${unsubscribed && html`<span class="badge bad"> unsubscribed from marketing</span>`}</h2>
    <div class="thread" id="thread" ref=${box} tabindex="0" aria-live="polite" aria-label=${`Texts with ${mobile}`} onScroll=${onScroll}>
      ${items.length === 0 && html`<p class="empty">No texts to ${mobile} yet: they appear here as they are sent.</p>`}
      ${items.map(i =>
        i.message
          ? html`<${Sms} key=${`m${i.message.msg_id}`} s=${s} m=${i.message} highlighted=${i.message.msg_id === msgId} />`
          : html`<${Reply} key=${`r${i.reply.seq}`} r=${i.reply} />`,
      )}
    </div>
    <${Composer} s=${s} mobile=${mobile} />
  </section>`
}

function OpenPhone() {
  const submit = e => {
    e.preventDefault()
    location.hash = `#/phones/${e.currentTarget.mobile.value.trim()}`
  }
  return html`<form class="inline" onSubmit=${submit}>
    <label for="open-mobile">Open phone</label>
    <input id="open-mobile" name="mobile" inputmode="tel" required placeholder="13800138000" size="14" />
    <button type="submit">Open</button>
  </form>`
}

function PhonesView({ s }) {
  const all = conversations(s.data)
  const [selected] = s.route.args
  const shown = [...all.values()]
    .filter(c => matches(s.search, c.mobile, ...searchable(c)))
    .sort((a, b) => b.last.localeCompare(a.last))
  return html`<div class="split">
    <section class="list" aria-labelledby="phones-title">
      <h2 id="phones-title">Phones</h2>
      <${OpenPhone} />
      ${shown.length === 0 && html`<p class="empty">${s.search ? 'No phone matches the search.' : 'No SMS sent yet.'}</p>`}
      <ul class="items">
        ${shown.map(c => {
          const last = c.items.at(-1)
          const preview = last?.message?.content ?? last?.reply?.content ?? ''
          return html`<li key=${c.mobile}>
            <a href=${`#/phones/${c.mobile}`} aria-current=${c.mobile === selected ? 'true' : null}>
              <strong>${c.mobile}</strong>
              <span class="muted"> ${c.items.length} · <${Time} at=${c.last} /></span>
              <span class="preview">${preview}</span>
            </a>
          </li>`
        })}
      </ul>
    </section>
    ${
      selected
        ? html`<${Thread} key=${selected} s=${s} mobile=${selected} conversation=${all.get(selected)} />`
        : html`<p class="detail empty">Choose a phone to read its texts, or open one by its mobile.</p>`
    }
  </div>`
}

export { PhonesView as View }

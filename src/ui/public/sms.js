// @ts-check
// One text as the phone shows it: its kind and signature, the code marked with a copy button, its
// delivery report (or the status it will get, chosen here); the phone's replies, and the box to send one.

import { act, copyable, field, h, time, toast } from './dom.js'
import { messageKind, REPORT_STATUSES, reportText } from './labels.js'

/** The Requests view, filtered to the calls that made or named a msg_id (and links back). */
export const callOf = msgId => `#/requests?msg_id=${encodeURIComponent(msgId)}`

/** Verified, expired, or valid until when (its expiry read against the app's clock). */
function codeState(ctx, m) {
  const code = ctx.state.codeOf.get(m.msg_id)
  if (!code) return ''
  if (code.verified) return h('span', { class: 'badge ok code-state' }, 'verified')
  const clock = ctx.state.app?.clock
  const now = clock ? clock.now + (Date.now() - ctx.state.clockReadAt) : Date.now()
  if (Date.parse(code.expires_at) <= now) return h('span', { class: 'badge muted code-state' }, 'expired')
  return h(
    'span',
    { class: 'badge warn code-state' },
    'not verified yet · valid until ',
    time(code.expires_at),
  )
}

/** The text with its code marked, so that the eye finds it at once. */
function withCode(content, code) {
  const at = code ? content.indexOf(code) : -1
  if (at < 0) return content
  return [content.slice(0, at), h('mark', null, code), content.slice(at + code.length)]
}

function reportLine(ctx, m) {
  const report = ctx.state.reportOf.get(m.msg_id)
  if (report)
    return h(
      'span',
      { class: report.status === 4001 ? 'ok' : 'bad' },
      `Delivery report: ${reportText(report.status)} at `,
      time(report.receive_time),
    )
  const chosen = ctx.state.steered.get(m.msg_id)
  const id = `report-${m.msg_id}`
  const choose = h(
    'select',
    { id, name: 'status' },
    Object.entries(REPORT_STATUSES).map(([status, text]) =>
      h('option', { value: status, selected: chosen?.status === Number(status) }, `${status} ${text}`),
    ),
  )
  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: async e => {
        e.preventDefault()
        const status = Number(choose.value)
        const answer = await act(e.submitter, () =>
          ctx.api.post('/_sandbox/sms/reports', { msg_id: m.msg_id, status }),
        )
        if (!answer) return
        ctx.state.steered.set(m.msg_id, answer)
        ctx.done(form)
        toast(`The report of ${m.msg_id} will say ${reportText(status)}`)
        ctx.render()
      },
    },
    h('label', { for: id }, 'Its status'),
    ' ',
    choose,
    ' ',
    h('button', { type: 'submit' }, 'Set report'),
  )
  // Folded until asked for; kept open across live updates.
  const details = h(
    'details',
    { open: steering.has(m.msg_id) },
    h(
      'summary',
      null,
      chosen ? `Report due: ${reportText(chosen.status)}` : 'No delivery report yet: choose its status',
    ),
    form,
  )
  details.addEventListener('toggle', () =>
    details.open ? steering.add(m.msg_id) : steering.delete(m.msg_id),
  )
  return details
}

/** The messages whose "choose its status" is unfolded. */
const steering = new Set()

export function sms(ctx, m, highlighted) {
  const { templates, signs } = ctx.state
  const sign = signs.find(s => s.sign_id === m.sign_id)
  const kind = messageKind(m, templates)
  return h(
    'article',
    {
      class: `sms incoming${highlighted ? ' highlight' : ''}`,
      id: `msg-${m.msg_id}`,
      'data-msg-id': m.msg_id,
    },
    h(
      'header',
      null,
      h('span', { class: `badge kind-${kind.replace(/\W+/g, '-')}` }, kind),
      sign && h('span', null, ` signature ${sign.sign}`),
      m.temp_id !== null && h('span', null, ` · template ${m.temp_id}`),
      m.schedule_id &&
        h('a', { href: `#/scheduled/${m.schedule_id}` }, ` · schedule ${m.schedule_id.slice(0, 8)}…`),
    ),
    h('p', { class: 'text' }, withCode(m.content, m.code)),
    m.code &&
      h('p', { class: 'code' }, 'Code ', copyable(m.code, 'code', 'Copy code'), ' ', codeState(ctx, m)),
    h(
      'footer',
      null,
      time(m.created_at),
      ' · msg_id ',
      copyable(m.msg_id, 'msg_id'),
      ` · ${m.units} billed · `,
      h('a', { href: callOf(m.msg_id) }, 'the call that sent it'),
    ),
    h('div', { class: 'report' }, reportLine(ctx, m)),
  )
}

export const reply = r =>
  h(
    'article',
    { class: 'sms outgoing' },
    h('p', { class: 'text' }, r.content),
    h('footer', null, 'Reply · ', time(r.reply_time)),
  )

export function composer(ctx, mobile) {
  const send = async (button, content, form) => {
    const answer = await act(button, () => ctx.api.post('/_sandbox/sms/replies', { mobile, content }))
    if (!answer) return
    if (form) {
      ctx.done(form)
      form.reset()
    }
    if (answer.unsubscribed) toast(`${mobile} unsubscribed from the app's marketing messages`)
    ctx.data.invalidate(['sms', 'callbacks', 'app'])
  }
  const form = h(
    'form',
    {
      class: 'composer',
      onsubmit: e => {
        e.preventDefault()
        send(e.submitter, form.content.value, form)
      },
    },
    field(
      `Reply from ${mobile}`,
      h('input', { id: 'reply-content', name: 'content', required: true, autocomplete: 'off' }),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Send reply'),
      ' ',
      h('button', { type: 'button', onclick: e => send(e.currentTarget, 'TD') }, 'Reply TD (unsubscribe)'),
    ),
  )
  return form
}

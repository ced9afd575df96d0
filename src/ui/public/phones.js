// @ts-check
// Phones: one conversation per mobile, as a phone's messages app shows it — every SMS the app sent
// it (signature, kind, the code with a copy button, the delivery report) and the phone's replies.

import { act, copyable, field, h, matches, time, toast } from './dom.js'
import { messageKind, REPORT_STATUSES, reportText } from './labels.js'
import { callOf } from './requests.js'

// One text as the phone shows it: its kind and signature, the code marked with a copy button and
// its state, its delivery report (or the status it will get, chosen here); the phone's replies,
// and the box to send one.

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

function sms(ctx, m, highlighted) {
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

const reply = r =>
  h(
    'article',
    { class: 'sms outgoing' },
    h('p', { class: 'text' }, r.content),
    h('footer', null, 'Reply · ', time(r.reply_time)),
  )

function composer(ctx, mobile) {
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

// The list of phones and the open one.

/** Conversations by mobile: messages and replies, oldest first, and the time of the latest. */
function conversations(state) {
  const byMobile = new Map()
  const of = mobile => {
    if (!byMobile.has(mobile)) byMobile.set(mobile, { mobile, items: [], last: '' })
    return byMobile.get(mobile)
  }
  for (const m of state.messages) of(m.mobile).items.push({ at: m.created_at, seq: m.seq, message: m })
  for (const r of state.replies) of(r.mobile).items.push({ at: r.reply_time, seq: r.seq, reply: r })
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

function thread(ctx, mobile, conversation) {
  const [, msgId] = ctx.route.args
  const unsubscribed = ctx.state.app?.unsubscribed?.includes(mobile)
  const items = conversation?.items ?? []
  return h(
    'section',
    { class: 'detail', 'aria-labelledby': 'thread-title' },
    h(
      'h2',
      { id: 'thread-title' },
      `Phone ${mobile}`,
      unsubscribed && h('span', { class: 'badge bad' }, ' unsubscribed from marketing'),
    ),
    h(
      'div',
      {
        class: 'thread',
        id: 'thread',
        tabindex: '0',
        'aria-label': `Texts with ${mobile}`,
        'aria-live': 'polite',
      },
      items.length === 0 &&
        h('p', { class: 'empty' }, `No texts to ${mobile} yet: they appear here as they are sent.`),
      items.map(i => (i.message ? sms(ctx, i.message, i.message.msg_id === msgId) : reply(i.reply))),
    ),
    composer(ctx, mobile),
  )
}

function openPhone() {
  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: e => {
        e.preventDefault()
        location.hash = `#/phones/${form.mobile.value.trim()}`
      },
    },
    h('label', { for: 'open-mobile' }, 'Open phone'),
    ' ',
    h('input', {
      id: 'open-mobile',
      name: 'mobile',
      inputmode: 'tel',
      required: true,
      placeholder: '13800138000',
      size: 14,
    }),
    ' ',
    h('button', { type: 'submit' }, 'Open'),
  )
  return form
}

// The thread follows new texts while it is scrolled to its end; otherwise it stays where it is.
const scroll = { key: '', stick: true, top: 0 }

export const phonesView = {
  id: 'phones',
  label: 'Phones',
  count: state => conversations(state).size,
  render(ctx) {
    const all = conversations(ctx.state)
    const [selected] = ctx.route.args
    const shown = [...all.values()]
      .filter(c => matches(ctx.search, c.mobile, ...searchable(c)))
      .sort((a, b) => b.last.localeCompare(a.last))
    return h(
      'div',
      { class: 'split' },
      h(
        'section',
        { class: 'list', 'aria-labelledby': 'phones-title' },
        h('h2', { id: 'phones-title' }, 'Phones'),
        openPhone(),
        shown.length === 0 &&
          h('p', { class: 'empty' }, ctx.search ? 'No phone matches the search.' : 'No SMS sent yet.'),
        h(
          'ul',
          { class: 'items' },
          shown.map(c => {
            const last = c.items.at(-1)
            const preview = last?.message?.content ?? last?.reply?.content ?? ''
            return h(
              'li',
              null,
              h(
                'a',
                { href: `#/phones/${c.mobile}`, 'aria-current': c.mobile === selected ? 'true' : null },
                h('strong', null, c.mobile),
                h('span', { class: 'muted' }, ` ${c.items.length} · `, time(c.last)),
                h('span', { class: 'preview' }, preview),
              ),
            )
          }),
        ),
      ),
      selected
        ? thread(ctx, selected, all.get(selected))
        : h('p', { class: 'detail empty' }, 'Choose a phone to read its texts, or open one by its mobile.'),
    )
  },
  afterRender(main, ctx) {
    const box = main.querySelector('#thread')
    if (!box) return
    const [, msgId] = ctx.route.args
    const key = ctx.route.args.join('/')
    const target = msgId && box.querySelector(`[data-msg-id="${CSS.escape(msgId)}"]`)
    // A link to one message (from a schedule) shows that message first; a phone, its latest text.
    if (scroll.key !== key)
      Object.assign(scroll, { key, stick: !target, top: target ? target.offsetTop - box.offsetTop - 8 : 0 })
    box.scrollTop = scroll.stick ? box.scrollHeight : scroll.top
    box.addEventListener('scroll', () => {
      scroll.top = box.scrollTop
      scroll.stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 24
    })
  },
}

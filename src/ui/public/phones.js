// @ts-check
// Phones: one conversation per mobile, as a phone's messages app shows it — every SMS the app sent
// it (signature, kind, the code with a copy button, the delivery report) and the phone's replies.

import { h, matches, time } from './dom.js'
import { composer, reply, sms } from './sms.js'

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

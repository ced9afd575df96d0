// @ts-check
// Scheduled: the app's SMS tasks (POST /v1/schedule) and JPush schedules (/v3/schedules), their
// state, and what each fired: its messages, each a link to the phone that got it.

import { copyable, h, json, matches, time } from './dom.js'

const STATE_CLASS = {
  pending: 'warn',
  active: 'warn',
  sent: 'ok',
  expired: 'muted',
  disabled: 'muted',
  deleted: 'muted',
}
const badge = state => h('span', { class: `badge ${STATE_CLASS[state] ?? ''}` }, state)

function recipient(r, fired) {
  return h(
    'li',
    null,
    h(
      'a',
      { href: fired && !r.error ? `#/phones/${r.mobile}/${r.msg_id}` : `#/phones/${r.mobile}` },
      r.mobile,
    ),
    ' · msg_id ',
    copyable(r.msg_id, 'msg_id'),
    r.error
      ? h('span', { class: 'bad' }, ` · refused when it fired: ${r.error.message} (${r.error.code})`)
      : fired && ' · sent',
    Object.keys(r.temp_para).length > 0 &&
      h('span', { class: 'muted' }, ` · temp_para ${JSON.stringify(r.temp_para)}`),
  )
}

function smsTask(s, highlighted) {
  const fired = s.state === 'sent'
  return h(
    'article',
    {
      class: `card${highlighted ? ' highlight' : ''}`,
      id: `schedule-${s.schedule_id}`,
      'data-schedule-id': s.schedule_id,
    },
    h(
      'header',
      null,
      badge(s.state),
      ` send_time ${s.send_time} · template ${s.temp_id}${s.batch ? ' · batch' : ''}${s.tag ? ` · tag ${s.tag}` : ''}`,
    ),
    h(
      'p',
      { class: 'muted' },
      'schedule_id ',
      h('code', null, s.schedule_id),
      fired && [' · fired ', time(s.sent_at)],
    ),
    h(
      'ul',
      { class: 'plain' },
      s.recipients.map(r => recipient(r, fired)),
    ),
  )
}

function pushTask(s) {
  return h(
    'article',
    { class: 'card', 'data-schedule-id': s.schedule_id },
    h(
      'header',
      null,
      badge(s.state),
      ` ${s.name} · ${s.kind}`,
      s.next_fire_time && [' · next ', time(s.next_fire_time)],
    ),
    h('p', { class: 'muted' }, 'schedule_id ', h('code', null, s.schedule_id)),
    h(
      'details',
      null,
      h('summary', null, 'trigger and push'),
      h('pre', null, json({ trigger: s.trigger, push: s.push })),
    ),
    s.firings.length > 0 &&
      h(
        'ul',
        { class: 'plain' },
        s.firings.map(f =>
          h(
            'li',
            null,
            'fired ',
            time(f.fire_time),
            f.msg_id ? [' · msg_id ', copyable(f.msg_id, 'msg_id')] : '',
            f.error && h('span', { class: 'bad' }, ` · ${f.error.message} (${f.error.code})`),
          ),
        ),
      ),
  )
}

let scrolledTo = ''

export const scheduledView = {
  id: 'scheduled',
  label: 'Scheduled',
  count: state =>
    state.smsSchedules.filter(s => s.state === 'pending').length +
    state.pushSchedules.filter(s => s.state === 'active').length,
  render(ctx) {
    const [selected] = ctx.route.args
    const sms = ctx.state.smsSchedules.filter(s =>
      matches(ctx.search, s.schedule_id, s.send_time, s.tag, ...s.recipients),
    )
    const push = ctx.state.pushSchedules.filter(s =>
      matches(ctx.search, s.schedule_id, s.name, s.firings, s.push),
    )
    return h(
      'div',
      { class: 'single' },
      h(
        'section',
        { 'aria-labelledby': 'sms-schedules-title' },
        h('h2', { id: 'sms-schedules-title' }, 'SMS schedules'),
        h('p', { class: 'muted' }, 'send_time is Beijing time. Move the clock past it to fire a task.'),
        sms.length === 0 && h('p', { class: 'empty' }, 'No scheduled SMS.'),
        sms.map(s => smsTask(s, s.schedule_id === selected)),
      ),
      h(
        'section',
        { 'aria-labelledby': 'push-schedules-title' },
        h('h2', { id: 'push-schedules-title' }, 'Push schedules'),
        push.length === 0 && h('p', { class: 'empty' }, 'No push schedule.'),
        push.map(pushTask),
      ),
    )
  },
  afterRender(main, ctx) {
    // Once per link followed, so that live updates do not pull the page back.
    const [selected = ''] = ctx.route.args
    if (selected === scrolledTo) return
    scrolledTo = selected
    if (selected)
      main.querySelector(`[data-schedule-id="${CSS.escape(selected)}"]`)?.scrollIntoView({ block: 'nearest' })
  },
}

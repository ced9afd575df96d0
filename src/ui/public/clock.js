// @ts-check
// Clock: the app's own time, moved forward by hand. A move answers once everything that fell due
// on the way has run (POST /_sandbox/clock); the events logged meanwhile say what that was.

import { act, beijing, duration, h, toast } from './dom.js'
import { reportText } from './labels.js'

/** @type {Array<[string, number]>} */
const STEPS = [
  ['+1 min', 60_000],
  ['+10 min', 600_000],
  ['+1 h', 3_600_000],
  ['+1 day', 86_400_000],
]

/**
 * One line for an event of the stream (GET /_sandbox/events: `{seq, type, data}`).
 * @param {{ type: string, data?: any }} event
 */
function describe({ type, data: d = {} }) {
  const phone = (mobile, msgId) => h('a', { href: `#/phones/${mobile}/${msgId ?? ''}` }, mobile)
  switch (type) {
    case 'sms.sent':
      return ['SMS to ', phone(d.mobile, d.msg_id), ` (msg_id ${d.msg_id})`]
    case 'sms.report':
      return ['Delivery report for ', phone(d.mobile, d.msg_id), `: ${reportText(d.status)}`]
    case 'sms.reply':
      return ['Reply from ', phone(d.mobile), `: ${d.content}`]
    case 'push.sent':
      return ['Push ', d.msg_id, ' sent']
    case 'push.delivered':
      return [
        'Push ',
        d.msg_id,
        ' delivered to ',
        h('a', { href: `#/devices/${d.registration_id}` }, d.registration_id),
      ]
    case 'callback.attempt':
      return [`Callback ${d.type}: ${d.state}`]
    case 'review.decided':
      return [
        `${d.kind === 'template' ? `Template ${d.temp_id}` : `Signature ${d.sign_id}`} ${d.status === 1 ? 'approved' : 'rejected'}`,
      ]
    case 'schedule.fired': {
      const task = h('a', { href: `#/scheduled/${d.schedule_id}` }, d.schedule_id)
      if (d.api === 'push')
        return [
          'Push schedule ',
          task,
          d.error ? ` fired: ${d.error.message} (${d.error.code})` : ` fired: push ${d.msg_id}`,
        ]
      return ['Schedule ', task, ` fired (${d.sent ?? 0} sent, ${d.failed ?? 0} refused)`]
    }
    case 'push.clicked':
      return [
        'Push ',
        d.msg_id,
        ' opened on ',
        h('a', { href: `#/devices/${d.registration_id}` }, d.registration_id),
      ]
    default:
      return [type]
  }
}

async function move(ctx, button, body) {
  const { api, state } = ctx
  // The event log says what fell due: what came after its newest seq before the move.
  const before = await act(button, () => api.get('/_sandbox/events?limit=1'))
  if (!before) return
  const clock = await act(button, () => api.post('/_sandbox/clock', body))
  if (!clock) return
  const after = await act(button, () => api.get(`/_sandbox/events?after=${before.next_after}&limit=1000`))
  const fell = (after?.events ?? []).filter(e => e.type !== 'clock.moved').reverse()
  state.lastMove = { from: state.app?.clock?.now, to: clock.now, events: fell }
  state.app = { ...state.app, clock }
  state.clockReadAt = Date.now()
  toast(`App time is now ${beijing(clock.now)}`)
  ctx.data.invalidate()
  ctx.render()
}

export const clockView = {
  id: 'clock',
  label: 'Clock',
  render(ctx) {
    const clock = ctx.state.app?.clock
    const moved = ctx.state.lastMove
    const toForm = h(
      'form',
      {
        class: 'inline',
        onsubmit: e => {
          e.preventDefault()
          const value = toForm.to.value // yyyy-MM-ddTHH:mm, read as Beijing time
          move(ctx, e.submitter, { set: `${value.length === 16 ? `${value}:00` : value}+08:00` })
          ctx.done(toForm)
        },
      },
      h('label', { for: 'clock-to' }, 'Move to (Beijing time)'),
      ' ',
      h('input', { id: 'clock-to', name: 'to', type: 'datetime-local', step: 1, required: true }),
      ' ',
      h('button', { type: 'submit' }, 'Move'),
    )
    return h(
      'section',
      { class: 'single', 'aria-labelledby': 'clock-title' },
      h('h2', { id: 'clock-title' }, 'Clock'),
      clock
        ? h(
            'p',
            { class: 'big' },
            `App time ${beijing(clock.now)} Beijing time`,
            h('br'),
            h(
              'small',
              null,
              `${new Date(clock.now).toISOString()} UTC · ${clock.offset_ms === 0 ? 'real time' : `${duration(clock.offset_ms)} ahead of real time`}`,
            ),
          )
        : h('p', { class: 'empty' }, 'Loading…'),
      h(
        'p',
        { class: 'muted' },
        'The clock only moves forward; a reset sets it back to real time. Schedules, delivery reports, reviews and callback retries that fall due on the way run in order.',
      ),
      h(
        'div',
        { class: 'actions', role: 'group', 'aria-label': 'Move the clock forward' },
        STEPS.map(([label, ms]) =>
          h(
            'button',
            {
              type: 'button',
              onclick: e => move(ctx, e.currentTarget, { advance_ms: ms }),
              'aria-label': `Move the clock ${label.replace('+', 'forward ')}`,
            },
            label,
          ),
        ),
      ),
      toForm,
      moved &&
        h(
          'section',
          { 'aria-labelledby': 'fell-due-title' },
          h('h3', { id: 'fell-due-title' }, `What fell due moving to ${beijing(moved.to)}`),
          moved.events.length === 0
            ? h('p', { class: 'empty' }, 'Nothing fell due.')
            : h(
                'ol',
                { class: 'plain events' },
                moved.events.map(e =>
                  h('li', { 'data-type': e.type }, h('span', { class: 'badge' }, e.type), ' ', describe(e)),
                ),
              ),
        ),
    )
  },
}

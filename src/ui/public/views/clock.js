// @ts-check
// Clock: the app's own time, moved forward by hand. A move answers once everything that fell due
// on the way has run (POST /_sandbox/clock); the events logged meanwhile say what that was.

import { act, toast } from '../components/toasts.js'
import { beijing, duration } from '../lib/format.js'
import { html } from '../lib/html.js'
import { reportText } from '../lib/labels.js'

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
  const phone = (mobile, msgId) => html`<a href=${`#/phones/${mobile}/${msgId ?? ''}`}>${mobile}</a>`
  const device = rid => html`<a href=${`#/devices/${rid}`}>${rid}</a>`
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
      return ['Push ', d.msg_id, ' delivered to ', device(d.registration_id)]
    case 'callback.attempt':
      return [`Callback ${d.type}: ${d.state}`]
    case 'review.decided':
      return [
        `${d.kind === 'template' ? `Template ${d.temp_id}` : `Signature ${d.sign_id}`} ${d.status === 1 ? 'approved' : 'rejected'}`,
      ]
    case 'schedule.fired': {
      const task = html`<a href=${`#/scheduled/${d.schedule_id}`}>${d.schedule_id}</a>`
      if (d.api === 'push')
        return [
          'Push schedule ',
          task,
          d.error ? ` fired: ${d.error.message} (${d.error.code})` : ` fired: push ${d.msg_id}`,
        ]
      return ['Schedule ', task, ` fired (${d.sent ?? 0} sent, ${d.failed ?? 0} refused)`]
    }
    case 'push.clicked':
      return ['Push ', d.msg_id, ' opened on ', device(d.registration_id)]
    default:
      return [type]
  }
}

/** Moves the app's clock, then says what fell due on the way (the events logged meanwhile). */
async function move(s, button, body) {
  const { api, data } = s.session
  // The event log says what fell due: what came after its newest seq before the move.
  const before = await act(button, () => api.get('/_sandbox/events?limit=1'))
  if (!before) return
  const clock = await act(button, () => api.post('/_sandbox/clock', body))
  if (!clock) return
  const after = await act(button, () => api.get(`/_sandbox/events?after=${before.next_after}&limit=1000`))
  const fell = (after?.events ?? []).filter(e => e.type !== 'clock.moved').reverse()
  data.remember({
    lastMove: { from: s.data.app?.clock?.now, to: clock.now, events: fell },
    app: { ...s.data.app, clock },
    clockReadAt: Date.now(),
  })
  toast(`App time is now ${beijing(clock.now)}`)
  data.invalidate()
}

function ClockView({ s }) {
  const clock = s.data.app?.clock
  const moved = s.data.lastMove
  const moveTo = e => {
    e.preventDefault()
    const form = e.currentTarget
    const value = form.to.value // yyyy-MM-ddTHH:mm, read as Beijing time
    move(s, e.submitter, { set: `${value.length === 16 ? `${value}:00` : value}+08:00` })
  }
  return html`<section class="single" aria-labelledby="clock-title">
    <h2 id="clock-title">Clock</h2>
    ${
      clock
        ? html`<p class="big">
          App time ${beijing(clock.now)} Beijing time<br />
          <small>
            ${`${new Date(clock.now).toISOString()} UTC · ${clock.offset_ms === 0 ? 'real time' : `${duration(clock.offset_ms)} ahead of real time`}`}
          </small>
        </p>`
        : html`<p class="empty">Loading…</p>`
    }
    <p class="muted">
      The clock only moves forward; a reset sets it back to real time. Schedules, delivery reports, reviews and
      callback retries that fall due on the way run in order.
    </p>
    <div class="actions" role="group" aria-label="Move the clock forward">
      ${STEPS.map(
        ([label, ms]) =>
          html`<button type="button" onClick=${e => move(s, e.currentTarget, { advance_ms: ms })}
            aria-label=${`Move the clock ${label.replace('+', 'forward ')}`}>${label}</button>`,
      )}
    </div>
    <form class="inline" onSubmit=${moveTo}>
      <label for="clock-to">Move to (Beijing time)</label>
      <input id="clock-to" name="to" type="datetime-local" step="1" required />
      <button type="submit">Move</button>
    </form>
    ${
      moved &&
      html`<section aria-labelledby="fell-due-title">
      <h3 id="fell-due-title">What fell due moving to ${beijing(moved.to)}</h3>
      ${
        moved.events.length === 0
          ? html`<p class="empty">Nothing fell due.</p>`
          : html`<ol class="plain events">
            ${moved.events.map(
              e =>
                html`<li key=${e.seq} data-type=${e.type}><span class="badge">${e.type}</span> ${describe(e)}</li>`,
            )}
          </ol>`
      }
    </section>`
    }
  </section>`
}

export { ClockView as View }

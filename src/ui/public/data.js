// What the page knows of the app, read from the control plane by topic. An event of the stream
// marks the topics it touches stale; they are read again at once (a burst of events is one read),
// so every view shows what the API shows, and nothing is merged by hand.

const LIMIT = 'limit=1000'

const TOPICS = {
  app: async api => {
    const [app, faults] = await Promise.all([api.get('/_sandbox/app'), api.get('/_sandbox/faults')])
    return { app, faults: faults.faults, clockReadAt: Date.now() }
  },
  sms: async api => {
    const [messages, reports, replies] = await Promise.all([
      api.get(`/_sandbox/sms/messages?${LIMIT}`),
      api.get(`/_sandbox/sms/reports?${LIMIT}`),
      api.get(`/_sandbox/sms/replies?${LIMIT}`),
    ])
    const reportOf = new Map(reports.reports.map(r => [r.msg_id, r]))
    return { messages: messages.messages, reportOf, replies: replies.replies }
  },
  push: async api => {
    const [devices, pushes] = await Promise.all([
      api.get('/_sandbox/push/devices'),
      api.get(`/_sandbox/push/messages?${LIMIT}`),
    ])
    return { devices: devices.devices, pushes: pushes.messages }
  },
  schedules: async api => {
    const [sms, push] = await Promise.all([
      api.get(`/_sandbox/sms/schedules?${LIMIT}`),
      api.get(`/_sandbox/push/schedules?${LIMIT}`),
    ])
    return { smsSchedules: sms.schedules, pushSchedules: push.schedules }
  },
  callbacks: async api => {
    const answer = await api.get(`/_sandbox/callbacks?${LIMIT}`)
    return { callbacks: answer.callbacks, callbackUrl: answer.callback_url }
  },
  reviews: async api => {
    const [templates, signs] = await Promise.all([
      api.get('/_sandbox/sms/templates'),
      api.get('/_sandbox/sms/signs'),
    ])
    return { templates: templates.templates, signs: signs.signs }
  },
}

export const ALL = Object.keys(TOPICS)

/** What each event changes. A callback is queued by a report, a reply or a review decision. */
const EVENT_TOPICS = {
  'sms.sent': ['sms', 'schedules'],
  'sms.report': ['sms', 'callbacks'],
  'sms.reply': ['sms', 'callbacks', 'app'],
  'push.delivered': ['push'],
  'push.clicked': ['push'],
  'callback.attempt': ['callbacks'],
  'review.decided': ['reviews', 'callbacks'],
  'schedule.fired': ['schedules', 'sms', 'push'],
  'clock.moved': ['app'],
  'app.changed': ['app'],
}

/** The app's data, kept fresh: `onChange()` after each read. */
export function createData(api, onChange) {
  const state = {
    messages: [],
    /** msg_id → its delivery report. */
    reportOf: new Map(),
    replies: [],
    devices: [],
    pushes: [],
    smsSchedules: [],
    pushSchedules: [],
    callbacks: [],
    templates: [],
    signs: [],
    faults: [],
    /** Pushes opened from this page (msg_id/registration_id → the click's answer). */
    clicks: new Map(),
    /** Report statuses chosen from this page for reports still to come (msg_id → the answer). */
    steered: new Map(),
    /** What fell due at the last clock move made from this page. */
    lastMove: null,
    errors: {},
  }
  const stale = new Set()
  let reading = false
  let timer

  async function read() {
    if (reading) return // the read under way takes what was marked meanwhile
    reading = true
    try {
      while (stale.size > 0) {
        const topics = [...stale]
        stale.clear()
        await Promise.all(
          topics.map(async topic => {
            try {
              Object.assign(state, await TOPICS[topic](api))
              delete state.errors[topic]
            } catch (err) {
              state.errors[topic] = err
            }
          }),
        )
        onChange()
      }
    } finally {
      reading = false
    }
  }

  function invalidate(topics = ALL) {
    for (const topic of topics) stale.add(topic)
    clearTimeout(timer)
    timer = setTimeout(read, 20)
  }

  /** What only this page knew of the app (its clicks, chosen reports, last clock move), after a reset. */
  function forget() {
    state.clicks.clear()
    state.steered.clear()
    state.lastMove = null
  }

  return {
    state,
    invalidate,
    forget,
    onEvent(type, data) {
      if (type === 'app.reset') forget()
      if (type === 'clock.moved' && data && typeof data.now === 'number') {
        state.app = { ...state.app, clock: data }
        state.clockReadAt = Date.now()
      }
      invalidate(EVENT_TOPICS[type] ?? ALL)
    },
  }
}

// @ts-check
// What the page knows of the open app, read from the control plane by topic into the store. An
// event of the stream marks the topics it touches stale (EVENT_TOPICS, the one table of what each
// event changes); they are read again at once (a burst of events is one read), and every view and
// tab badge drawn from them is drawn again: every view shows what the API shows, nothing is merged
// by hand.

const LIMIT = 'limit=1000'

/** The journal's newest this many entries matching the Requests view's filters are read. */
export const REQUESTS_LIMIT = 300
/** The Requests view's filters the journal applies itself (`outcome` sorts among what they answer). */
const REQUESTS_FILTERS = ['method', 'code', 'path', 'msg_id']

/**
 * The query GET /_sandbox/requests is read with for this route; null when the view is not shown.
 * @param {import('./route.js').Route} route
 */
export function requestsQuery(route) {
  if (route.id !== 'requests') return null
  const q = new URLSearchParams({ limit: String(REQUESTS_LIMIT) })
  for (const name of REQUESTS_FILTERS) {
    const value = route.params.get(name)?.trim()
    if (value) q.set(name, name === 'method' ? value.toUpperCase() : value)
  }
  return q.toString()
}

/** @type {Record<string, (api: import('./api.js').Api, opts: DataOptions) => Promise<Partial<AppData> | null>>} */
const TOPICS = {
  app: async api => {
    const [app, faults] = await Promise.all([api.get('/_sandbox/app'), api.get('/_sandbox/faults')])
    return { app, faults: faults.faults, clockReadAt: Date.now() }
  },
  sms: async (api, opts) => {
    const [messages, reports, replies] = await Promise.all([
      api.get(`/_sandbox/sms/messages?${LIMIT}`),
      api.get(`/_sandbox/sms/reports?${LIMIT}`),
      api.get(`/_sandbox/sms/replies?${LIMIT}`),
    ])
    const reportOf = new Map(reports.reports.map(r => [r.msg_id, r]))
    // Whether a code was verified (and until when it is valid): for the codes on screen only.
    const shown = opts.codesShown(messages.messages)
    const codes = await Promise.all(
      shown.map(id =>
        api.get(`/_sandbox/sms/codes/latest?msg_id=${encodeURIComponent(id)}`).catch(() => null),
      ),
    )
    const codeOf = new Map(codes.filter(Boolean).map(c => [c.msg_id, c]))
    return { messages: messages.messages, reportOf, replies: replies.replies, codeOf }
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
  // The journal is long and changes at every request: read only while the Requests view shows it,
  // with that view's filters.
  requests: async (api, opts) => {
    const query = opts.requestsQuery()
    if (query === null) return null
    const answer = await api.get(`/_sandbox/requests?${query}`)
    return { requests: answer.requests, requestsQuery: query }
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

/**
 * What each event of the stream changes: the topics it makes stale, so the views and the tab
 * badges drawn from them (docs/control-plane.md lists the events). The page listens to every type
 * named here (live.js); a type the server does not send costs nothing, one not named here is not
 * listened to. A type whose data says more than a topic (a device's item) is still read again:
 * the lists are the one source of what a view shows.
 * @type {Record<string, string[]>}
 */
export const EVENT_TOPICS = {
  'sms.sent': ['sms', 'schedules'],
  'sms.report': ['sms', 'callbacks'],
  'sms.reply': ['sms', 'callbacks', 'app'],
  'code.verified': ['sms'],
  'push.sent': ['push'],
  'push.delivered': ['push'],
  'push.clicked': ['push', 'callbacks'],
  'device.changed': ['push'],
  'callback.attempt': ['callbacks'],
  'review.decided': ['reviews', 'callbacks'],
  'template.changed': ['reviews'],
  'sign.changed': ['reviews'],
  'schedule.changed': ['schedules'],
  'schedule.fired': ['schedules', 'sms', 'push'],
  'fault.changed': ['app'],
  'clock.moved': ['app'],
  'app.changed': ['app'],
  'app.reset': ALL,
  'request.completed': ['requests'],
}

/**
 * What the page shows decides what is read: the journal with the Requests view's filters, and the
 * state of the codes in the open phone (msg_ids, from the messages just read).
 * @typedef {{ requestsQuery: () => string | null, codesShown: (messages: any[]) => string[] }} DataOptions
 */

export function emptyData() {
  return {
    messages: [],
    /** msg_id → its delivery report. */
    reportOf: new Map(),
    /** msg_id → its code's state (GET /_sandbox/sms/codes/latest?msg_id=), for the open phone. */
    codeOf: new Map(),
    replies: [],
    devices: [],
    pushes: [],
    smsSchedules: [],
    pushSchedules: [],
    callbacks: [],
    callbackUrl: null,
    templates: [],
    signs: [],
    faults: [],
    app: undefined,
    clockReadAt: 0,
    /** The journal as the Requests view asked for it (`requestsQuery`). */
    requests: [],
    requestsQuery: null,
    /** Pushes opened from this page (msg_id/registration_id → the click's answer). */
    clicks: new Map(),
    /** Report statuses chosen from this page for reports still to come (msg_id → the answer). */
    steered: new Map(),
    /** What fell due at the last clock move made from this page. */
    lastMove: null,
    /** The topics read at least once (a view says "Loading…" until its own is). */
    loaded: new Set(),
    /** @type {Record<string, any>} topic → the error its last read met */
    errors: {},
  }
}

/** @typedef {ReturnType<typeof emptyData>} AppData */

/**
 * The open app's data, kept fresh in the store's `data` (`write` merges into it). `stop()` once
 * the page speaks for another app: a read still under way then changes nothing.
 * @param {import('./api.js').Api} api
 * @param {{ read: () => AppData, write: (patch: Partial<AppData>) => void, onRead: () => void }} io
 * @param {DataOptions} opts
 */
export function createData(api, io, opts) {
  const stale = new Set()
  let reading = false
  let stopped = false
  let timer

  async function read() {
    if (reading) return // the read under way takes what was marked meanwhile
    reading = true
    try {
      while (stale.size > 0 && !stopped) {
        const topics = [...stale]
        stale.clear()
        const patch = {}
        const errors = { ...io.read().errors }
        const loaded = new Set(io.read().loaded)
        let changed = false
        await Promise.all(
          topics.map(async topic => {
            try {
              const answer = await TOPICS[topic](api, opts)
              if (answer) Object.assign(patch, answer)
              if (answer) loaded.add(topic)
              changed ||= answer !== null || topic in errors
              delete errors[topic]
            } catch (err) {
              errors[topic] = err
              changed = true
            }
          }),
        )
        if (stopped) return
        // A topic the page does not show now (the journal, outside its view) was not read: the
        // view stays as it is drawn.
        if (changed) {
          io.write({ ...patch, errors, loaded })
          io.onRead()
        }
      }
    } finally {
      reading = false
    }
  }

  function invalidate(topics = ALL) {
    if (stopped) return
    for (const topic of topics) stale.add(topic)
    clearTimeout(timer)
    timer = setTimeout(read, 20)
  }

  /** What only this page knew of the app (its clicks, chosen reports, last clock move), after a reset. */
  function forget() {
    io.write({ clicks: new Map(), steered: new Map(), lastMove: null })
  }

  return {
    invalidate,
    forget,
    /** What the page learnt from an answer of its own (a click, a report chosen, a clock move). */
    remember: (/** @type {Partial<AppData>} */ patch) => io.write(patch),
    stop() {
      stopped = true
      clearTimeout(timer)
    },
    onEvent(type, data) {
      if (type === 'app.reset') forget()
      if (type === 'clock.moved' && data && typeof data.now === 'number')
        io.write({ app: { ...io.read().app, clock: data }, clockReadAt: Date.now() })
      invalidate(EVENT_TOPICS[type] ?? ALL)
      // A warned call is journaled once answered, after the events of what it made: the texts and
      // pushes read since then are read again for its warnings (their `warnings`).
      if (type === 'request.completed' && data?.warnings?.length > 0)
        invalidate(data.surface === 'sms' ? ['sms'] : data.surface === 'push' ? ['push'] : ['sms', 'push'])
    },
  }
}

/** @typedef {ReturnType<typeof createData>} Data */

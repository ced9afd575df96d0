// @ts-check
// Requests: the app's request journal (GET /_sandbox/requests), newest first and live
// (`request.completed`): every /v1 and /v3 call and every /_sandbox write, what it was answered
// and why. A row opens to the bodies and the reason; the ids a call made link to what they are.

import { copyable, h, json, matches, time } from './dom.js'

const OUTCOMES = { '': 'any', '2xx': '2xx (answered)', '4xx': '4xx (refused)', '5xx': '5xx (failed)' }
const FILTERS = ['outcome', 'code', 'path', 'msg_id']
/** The newest this many entries matching the other filters are read; `outcome` sorts among them. */
const LIMIT = 300

/** The query GET /_sandbox/requests is read with for this route; null when the view is not shown. */
export function requestsQuery(route) {
  if (route.id !== 'requests') return null
  const q = new URLSearchParams({ limit: String(LIMIT) })
  for (const name of ['code', 'path', 'msg_id']) {
    const value = route.params.get(name)?.trim()
    if (value) q.set(name, value)
  }
  return q.toString()
}

/** This view, filtered to the calls that made or named a msg_id (a text's or push's link to its call). */
export const callOf = msgId => `#/requests?msg_id=${encodeURIComponent(msgId)}`

const outcomeOf = status => `${String(status)[0]}xx`

/** Where an id a call made is shown: a text in its phone, a push on its device. */
function idLink(ctx, surface, msgId) {
  const message = ctx.state.messages.find(m => m.msg_id === msgId)
  if (message) return h('a', { href: `#/phones/${message.mobile}/${msgId}` }, `the text to ${message.mobile}`)
  const push = ctx.state.pushes.find(p => p.msg_id === msgId)
  if (push)
    return h('a', { href: `#/devices/${push.registration_id}` }, `the push on ${push.registration_id}`)
  return surface === 'push' ? 'a push' : null
}

function entry(ctx, r) {
  const refused = r.status >= 400
  const ids = Object.entries(r.ids ?? {}).flatMap(([name, values]) => values.map(v => [name, v]))
  return h(
    'details',
    { class: `request ${refused ? 'refused' : ''}`, 'data-seq': r.seq, open: opened.has(r.seq) },
    h(
      'summary',
      null,
      h(
        'span',
        { class: `badge ${r.status < 300 ? 'ok' : r.status < 500 ? 'warn' : 'bad'}` },
        String(r.status),
      ),
      ' ',
      h('code', null, `${r.method} ${r.path}`),
      r.code !== null && r.code !== undefined && ` → ${r.code} ${r.message ?? ''}`,
      ' · ',
      time(r.at),
      r.operator && [' · ', h('span', { class: 'badge' }, 'operator')],
    ),
    h(
      'div',
      { class: 'request-detail' },
      r.reason && h('p', { class: 'reason' }, h('strong', null, 'Why: '), r.reason),
      ids.length > 0 &&
        h(
          'ul',
          { class: 'plain' },
          ids.map(([name, value]) =>
            h(
              'li',
              null,
              `${name} `,
              copyable(value, name),
              name === 'msg_id' && [' · ', idLink(ctx, r.surface, value)],
            ),
          ),
        ),
      h(
        'p',
        { class: 'muted' },
        `${r.surface} · ${r.duration_ms} ms · from ${r.client ?? '?'}`,
        r.user_agent && ` · ${r.user_agent}`,
        r.query && [' · query ', h('code', null, r.query)],
      ),
      h('h4', null, 'Request body'),
      h('pre', { class: 'body' }, pretty(r.request_body) || '(none)'),
      h('h4', null, 'Answer'),
      h('pre', { class: 'body' }, pretty(r.answer_body) || '(none)'),
    ),
  )
}

/** A JSON body indented; anything else as it was kept. */
function pretty(text) {
  if (!text) return ''
  try {
    return json(JSON.parse(text))
  } catch {
    return text
  }
}

/** Entries opened by the user, kept open across live updates. */
const opened = new Set()

function filtersForm(params) {
  const form = h(
    'form',
    {
      class: 'inline filters',
      id: 'request-filters',
      onsubmit: e => {
        e.preventDefault()
        const q = new URLSearchParams()
        for (const name of FILTERS) {
          const value = form.elements[`filter-${name}`].value.trim()
          if (value) q.set(name, value)
        }
        const query = q.toString()
        location.hash = `#/requests${query ? `?${query}` : ''}`
      },
      onchange: e => {
        if (e.target.tagName === 'SELECT') form.requestSubmit()
      },
    },
    h('label', { for: 'filter-outcome' }, 'Outcome'),
    ' ',
    h(
      'select',
      { id: 'filter-outcome', name: 'filter-outcome' },
      Object.entries(OUTCOMES).map(([v, t]) =>
        h('option', { value: v, selected: params.get('outcome') === v }, t),
      ),
    ),
    ' ',
    h('label', { for: 'filter-code' }, 'code'),
    ' ',
    h('input', {
      id: 'filter-code',
      name: 'filter-code',
      inputmode: 'numeric',
      size: 6,
      value: params.get('code') ?? '',
      autocomplete: 'off',
    }),
    ' ',
    h('label', { for: 'filter-path' }, 'path starts with'),
    ' ',
    h('input', {
      id: 'filter-path',
      name: 'filter-path',
      size: 14,
      placeholder: '/v1/messages',
      value: params.get('path') ?? '',
      autocomplete: 'off',
    }),
    ' ',
    h('label', { for: 'filter-msg_id' }, 'msg_id'),
    ' ',
    h('input', {
      id: 'filter-msg_id',
      name: 'filter-msg_id',
      size: 14,
      value: params.get('msg_id') ?? '',
      autocomplete: 'off',
    }),
    ' ',
    h('button', { type: 'submit' }, 'Filter'),
    ' ',
    h('a', { href: '#/requests' }, 'Clear'),
  )
  return form
}

export const requestsView = {
  id: 'requests',
  label: 'Requests',
  render(ctx) {
    const { params } = ctx.route
    const query = requestsQuery(ctx.route)
    const outcome = params.get('outcome') ?? ''
    const current = ctx.state.requestsQuery === query
    const shown = current
      ? ctx.state.requests.filter(
          r =>
            (!outcome || outcomeOf(r.status) === outcome) &&
            matches(ctx.search, r.path, r.message, r.reason, r.ids, r.request_body, r.answer_body),
        )
      : []
    const msgId = params.get('msg_id')
    const back = msgId && idLink(ctx, '', msgId)
    const problem = ctx.state.errors.requests
    return h(
      'section',
      { class: 'single', 'aria-labelledby': 'requests-title' },
      h('h2', { id: 'requests-title' }, 'Requests'),
      h(
        'p',
        { class: 'muted' },
        'Every /v1 and /v3 call of the app and every write to /_sandbox, newest first, with what it was answered and why (the request journal). Open one for its bodies.',
      ),
      filtersForm(params),
      msgId &&
        h(
          'p',
          null,
          'The calls that made or named msg_id ',
          copyable(msgId, 'msg_id'),
          back && [' · back to ', back],
        ),
      problem
        ? h('p', { class: 'problem' }, problem.message)
        : !current
          ? h('p', { class: 'empty' }, 'Loading…')
          : shown.length === 0
            ? h('p', { class: 'empty' }, 'No request matches.')
            : h(
                'div',
                { class: 'requests', 'aria-live': 'polite' },
                shown.map(r => entry(ctx, r)),
              ),
      current &&
        ctx.state.requests.length === LIMIT &&
        h(
          'p',
          { class: 'muted' },
          `The newest ${LIMIT} matching requests${outcome ? `, of which those ${outcome}` : ''}.`,
        ),
    )
  },
  afterRender(main) {
    for (const d of main.querySelectorAll('details.request'))
      d.addEventListener('toggle', () => {
        const seq = Number(d.dataset.seq)
        if (d.open) opened.add(seq)
        else opened.delete(seq)
      })
  },
}

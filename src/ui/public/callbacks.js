// @ts-check
// Callbacks: every POST the sandbox made (or will make) to the app's callback_url (jsms-api.md §6),
// its payload, each attempt with the receiver's answer, and the next retry.

import { h, json, matches, time } from './dom.js'
import { CALLBACK_TYPES } from './labels.js'

const STATE_CLASS = { delivered: 'ok', failed: 'bad', pending: 'warn', sending: 'warn' }

function attempt(a) {
  const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300
  return h(
    'tr',
    null,
    h('td', null, String(a.attempt)),
    h('td', null, time(a.at)),
    h('td', null, h('code', null, a.url)),
    h('td', { class: ok ? 'ok' : 'bad' }, a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`),
    h('td', null, a.error ?? ''),
  )
}

function callback(c) {
  return h(
    'article',
    { class: 'card', 'data-callback-id': c.id },
    h(
      'header',
      null,
      h('span', { class: `badge ${STATE_CLASS[c.state] ?? ''}` }, c.state),
      ` ${c.type} (${CALLBACK_TYPES[c.type] ?? 'callback'}) · queued `,
      time(c.created_at),
      c.next_attempt_at && [' · next attempt ', time(c.next_attempt_at)],
    ),
    h('details', null, h('summary', null, 'Payload (data)'), h('pre', null, json(c.data))),
    c.attempts.length === 0
      ? h('p', { class: 'muted' }, 'Not attempted yet.')
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            null,
            h('caption', { class: 'visually-hidden' }, `Attempts of callback ${c.id}`),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['#', 'at', 'url', 'answer', 'error'].map(t => h('th', { scope: 'col' }, t)),
              ),
            ),
            h('tbody', null, c.attempts.map(attempt)),
          ),
        ),
  )
}

export const callbacksView = {
  id: 'callbacks',
  label: 'Callbacks',
  count: state => state.callbacks.length,
  render(ctx) {
    const { callbacks, callbackUrl } = ctx.state
    const shown = callbacks.filter(c =>
      matches(ctx.search, c.type, c.state, c.data, ...c.attempts.map(a => a.url)),
    )
    return h(
      'section',
      { class: 'single', 'aria-labelledby': 'callbacks-title' },
      h('h2', { id: 'callbacks-title' }, 'Callbacks'),
      h(
        'p',
        null,
        'callback_url: ',
        callbackUrl
          ? h('code', null, callbackUrl)
          : 'none (reports and replies wait for GET /v1/report and /v1/reply)',
        ' · ',
        h('a', { href: '#/settings' }, 'change it'),
      ),
      h(
        'p',
        { class: 'muted' },
        'A failed attempt is retried after 3 minutes, 1 hour and 12 hours of the app clock.',
      ),
      shown.length === 0 && h('p', { class: 'empty' }, 'No callback.'),
      shown.map(callback),
    )
  },
}

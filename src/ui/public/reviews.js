// @ts-check
// Templates and signatures: their review state (JSMS §2.9, §2.10), decided in one click as the
// vendor's reviewer would (POST /_sandbox/sms/templates/{temp_id}/review and /signs/{sign_id}/review).

import { act, h, matches, time, toast } from './dom.js'
import { REVIEW_STATUSES, TEMPLATE_TYPES } from './labels.js'

const STATUS_CLASS = { 0: 'warn', 1: 'ok', 2: 'bad' }

/** Approve, or reject with a reason: `what` is "template 4" or "signature 2". */
function decide(ctx, what, path, row) {
  const reasonId = `reason-${path.replace(/\W+/g, '-')}`
  const send = async (button, status) => {
    const body = { status }
    if (status === 2)
      body.refuse_reason = /** @type {HTMLInputElement} */ (document.getElementById(reasonId)).value
    const answer = await act(button, () => ctx.api.post(path, body))
    if (!answer) return
    ctx.done(document.getElementById(reasonId))
    toast(`${what} ${status === 1 ? 'approved' : 'rejected'}`)
    ctx.data.invalidate(['reviews', 'callbacks'])
  }
  return h(
    'div',
    { class: 'decide' },
    row.status !== 1 &&
      h(
        'button',
        { type: 'button', onclick: e => send(e.currentTarget, 1), 'aria-label': `Approve ${what}` },
        'Approve',
      ),
    ' ',
    h('label', { for: reasonId, class: 'visually-hidden' }, `Reason for rejecting ${what}`),
    h('input', { id: reasonId, placeholder: 'reason (refuse_reason)', size: 16, autocomplete: 'off' }),
    ' ',
    h(
      'button',
      { type: 'button', onclick: e => send(e.currentTarget, 2), 'aria-label': `Reject ${what}` },
      'Reject',
    ),
  )
}

function status(row) {
  return h(
    'td',
    null,
    h('span', { class: `badge ${STATUS_CLASS[row.status]}` }, REVIEW_STATUSES[row.status] ?? row.status),
    row.status === 0 &&
      row.review_at && [h('br'), h('small', null, 'approved by the clock at '), time(row.review_at)],
    row.refuse_reason && [h('br'), h('small', null, `refuse_reason: ${row.refuse_reason}`)],
  )
}

/** A table whose cells say their column (`data-label`), so that a narrow window can stack them. */
function table(caption, head, rows) {
  for (const row of rows)
    for (const [i, cell] of [...row.cells].entries()) cell.setAttribute('data-label', head[i])
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'stack' },
      h('caption', null, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          head.map(t => h('th', { scope: 'col' }, t)),
        ),
      ),
      h('tbody', null, rows),
    ),
  )
}

export const reviewsView = {
  id: 'templates',
  label: 'Templates and signatures',
  count: state => [...state.templates, ...state.signs].filter(r => r.status === 0).length,
  render(ctx) {
    const templates = ctx.state.templates.filter(t => matches(ctx.search, t.temp_id, t.template, t.remark))
    const signs = ctx.state.signs.filter(s => matches(ctx.search, s.sign_id, s.sign, s.remark))
    return h(
      'section',
      { class: 'single', 'aria-labelledby': 'reviews-title' },
      h('h2', { id: 'reviews-title' }, 'Templates and signatures'),
      table(
        'Templates',
        ['temp_id', 'type', 'template', 'status', 'decision'],
        templates.map(t =>
          h(
            'tr',
            { 'data-temp-id': t.temp_id },
            h('td', null, String(t.temp_id)),
            h('td', null, TEMPLATE_TYPES[t.type] ?? t.type),
            h('td', null, t.template, t.remark && h('small', { class: 'muted' }, ` (${t.remark})`)),
            status(t),
            h(
              'td',
              null,
              decide(ctx, `template ${t.temp_id}`, `/_sandbox/sms/templates/${t.temp_id}/review`, t),
            ),
          ),
        ),
      ),
      table(
        'Signatures',
        ['sign_id', 'signature', 'status', 'decision'],
        signs.map(s =>
          h(
            'tr',
            { 'data-sign-id': s.sign_id },
            h('td', null, String(s.sign_id)),
            h('td', null, s.sign, s.is_default === 1 && [' ', h('span', { class: 'badge' }, 'default')]),
            status(s),
            h(
              'td',
              null,
              decide(ctx, `signature ${s.sign_id}`, `/_sandbox/sms/signs/${s.sign_id}/review`, s),
            ),
          ),
        ),
      ),
    )
  },
}

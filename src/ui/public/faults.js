// @ts-check
// Faults: the next matching /v1 or /v3 requests of the app fail as the vendor would (/_sandbox/faults).

import { act, field, h, input, number, toast } from './dom.js'

function faultForm(ctx) {
  const form = h(
    'form',
    {
      class: 'stacked',
      onsubmit: async e => {
        e.preventDefault()
        const f = form.elements
        const body = { path: f['fault-path'].value.trim() || '*', times: Number(f['fault-times'].value || 1) }
        if (f['fault-method'].value) body.method = f['fault-method'].value
        for (const [key, name] of [
          ['code', 'fault-code'],
          ['status', 'fault-status'],
          ['delay_ms', 'fault-delay'],
        ])
          if (f[name].value !== '') body[key] = Number(f[name].value)
        if (f['fault-message'].value) body.message = f['fault-message'].value
        if (f['fault-match-value'].value.trim())
          body.match = { [f['fault-match'].value]: f['fault-match-value'].value.trim() }
        const armed = await act(e.submitter, () => ctx.api.post('/_sandbox/faults', body))
        if (!armed) return
        ctx.done(form)
        form.reset()
        toast(`Fault ${armed.id} armed on ${armed.path}`)
        ctx.data.invalidate(['app'])
      },
    },
    field(
      'method',
      h(
        'select',
        { id: 'fault-method' },
        ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map(m => h('option', { value: m }, m || 'any')),
      ),
    ),
    field(
      'path',
      input('fault-path', { placeholder: '/v1/messages, /v3/push, /v1/codes/:msg_id/valid or *', size: 32 }),
    ),
    field('code (the vendor error)', number('fault-code')),
    field('HTTP status (for an undocumented code)', number('fault-status')),
    field('message', input('fault-message')),
    field('times', number('fault-times', 1)),
    field('delay_ms (real time)', number('fault-delay')),
    field(
      'only for',
      h(
        'select',
        { id: 'fault-match' },
        h('option', { value: 'mobile' }, 'mobile'),
        h('option', { value: 'registration_id' }, 'registration_id'),
      ),
    ),
    field('that recipient (empty: every request)', input('fault-match-value')),
    h('button', { type: 'submit' }, 'Arm fault'),
  )
  return form
}

export function faults(ctx) {
  const armed = ctx.state.faults
  const disarm = async e => {
    const answer = await act(e.currentTarget, () => ctx.api.del('/_sandbox/faults'))
    if (answer) toast(`${answer.cleared} faults disarmed`)
    ctx.data.invalidate(['app'])
  }
  return h(
    'section',
    { 'aria-labelledby': 'faults-title' },
    h('h2', { id: 'faults-title' }, 'Faults'),
    h(
      'p',
      { class: 'muted' },
      'The next matching /v1 or /v3 requests of this app fail with the vendor error, before anything is stored or charged.',
    ),
    armed.length === 0
      ? h('p', { class: 'empty' }, 'No fault armed.')
      : h(
          'ul',
          { class: 'plain', id: 'armed-faults' },
          armed.map(f =>
            h(
              'li',
              { 'data-fault-id': f.id },
              h('code', null, `${f.method ?? 'any'} ${f.path}`),
              f.code !== null && ` → ${f.code}${f.status ? ` (HTTP ${f.status})` : ''}`,
              f.delay_ms > 0 && ` after ${f.delay_ms} ms`,
              f.match &&
                ` only for ${Object.entries(f.match)
                  .map(([k, v]) => `${k} ${v}`)
                  .join('')}`,
              ` · ${f.remaining} left`,
            ),
          ),
        ),
    armed.length > 0 && h('button', { type: 'button', onclick: disarm }, 'Disarm all faults'),
    h('details', { class: 'register' }, h('summary', null, 'Arm a fault'), faultForm(ctx)),
  )
}

// @ts-check
// Devices: every push device of the app, and what each received, drawn as its platform shows it:
// a notification in the system's shade, a custom message (JPush "message") only to the app.

import { act, copyable, field, h, json, matches, time, toast } from './dom.js'
import { PLATFORMS } from './labels.js'
import { callOf } from './requests.js'

// A push as the device got it: a notification drawn as its platform shows one, a custom message
// (JPush "message", for the app only), and the click that opens it.

/** An iOS alert is a string or `{title, subtitle, body}` (jpush-api.md §5.3). */
function alertParts(n) {
  if (n && typeof n.alert === 'object' && n.alert !== null)
    return { title: n.alert.title, subtitle: n.alert.subtitle, body: n.alert.body }
  return { title: n?.title, body: n?.alert }
}

function notificationCard(device, n) {
  const { title, subtitle, body } = alertParts(n)
  const extras = n.extras && Object.keys(n.extras).length > 0
  return h(
    'div',
    { class: `notification platform-${device.platform}` },
    h('p', { class: 'app-name' }, `${PLATFORMS[device.platform] ?? device.platform} notification`),
    title && h('p', { class: 'title' }, title),
    subtitle && h('p', { class: 'subtitle' }, subtitle),
    h('p', { class: 'body' }, body ?? ''),
    n.big_text && h('p', { class: 'body' }, n.big_text),
    (n.badge !== undefined || n.badge_set_num !== undefined || n.badge_add_num !== undefined) &&
      h('p', { class: 'muted' }, `badge ${n.badge ?? n.badge_set_num ?? `+${n.badge_add_num}`}`),
    n.sound !== undefined &&
      h('p', { class: 'muted' }, `sound ${typeof n.sound === 'string' ? n.sound : json(n.sound)}`),
    extras && h('details', null, h('summary', null, 'extras'), h('pre', null, json(n.extras))),
  )
}

function messageCard(message) {
  return h(
    'div',
    { class: 'custom-message' },
    h('p', { class: 'app-name' }, 'Custom message (to the app, not shown by the system)'),
    message.title && h('p', { class: 'title' }, message.title),
    h('p', { class: 'body' }, String(message.msg_content ?? '')),
    message.content_type && h('p', { class: 'muted' }, `content_type ${message.content_type}`),
    message.extras && h('details', null, h('summary', null, 'extras'), h('pre', null, json(message.extras))),
  )
}

function received(ctx, device, p) {
  const click = ctx.state.clicks.get(`${p.msg_id}/${device.registration_id}`)
  const open = async e => {
    const answer = await act(e.currentTarget, () =>
      ctx.api.post(`/_sandbox/push/messages/${p.msg_id}/clicks`, { registration_id: device.registration_id }),
    )
    if (!answer) return
    ctx.state.clicks.set(`${p.msg_id}/${device.registration_id}`, answer)
    toast(`Opened push ${p.msg_id} on ${device.registration_id}`)
    ctx.data.invalidate(['push'])
  }
  return h(
    'article',
    { class: 'push', 'data-msg-id': p.msg_id },
    p.notification && notificationCard(device, p.notification),
    p.message && messageCard(p.message),
    h(
      'footer',
      { class: 'meta' },
      'Received ',
      time(p.received_at),
      ' · msg_id ',
      copyable(p.msg_id, 'msg_id'),
      ' · ',
      h('a', { href: callOf(p.msg_id) }, 'the call that pushed it'),
      p.alias && ` · to alias ${p.alias}`,
      p.withdrawn_at && [' · withdrawn ', time(p.withdrawn_at)],
      p.sms_msg_id && [
        ' · SMS fallback ',
        h('a', { href: `#/phones/${device.mobile}/${p.sms_msg_id}` }, p.sms_msg_id),
      ],
    ),
    click
      ? h('p', { class: 'ok' }, 'Opened (clicked) at ', time(click.clicked_at))
      : h(
          'button',
          { type: 'button', onclick: open, 'aria-label': `Open push ${p.msg_id} (click)` },
          'Open (click)',
        ),
  )
}

// The list of devices and the open one.

function detail(ctx, device) {
  const pushes = ctx.state.pushes.filter(p => p.registration_id === device.registration_id)
  const toggle = async e => {
    const online = !device.online
    const answer = await act(e.currentTarget, () =>
      ctx.api.patch(`/_sandbox/push/devices/${device.registration_id}`, { online }),
    )
    if (!answer) return
    toast(`${device.registration_id} is ${online ? `online (${answer.delivered} delivered)` : 'offline'}`)
    ctx.data.invalidate(['push', 'sms'])
  }
  return h(
    'section',
    { class: 'detail', 'aria-labelledby': 'device-title' },
    h('h2', { id: 'device-title' }, `${PLATFORMS[device.platform] ?? device.platform} device`),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'registration_id'),
      h('dd', null, copyable(device.registration_id, 'registration_id')),
      h('dt', null, 'alias'),
      h('dd', null, device.alias ?? '—'),
      h('dt', null, 'tags'),
      h('dd', null, device.tags.join(', ') || '—'),
      h('dt', null, 'mobile'),
      h('dd', null, device.mobile ? h('a', { href: `#/phones/${device.mobile}` }, device.mobile) : '—'),
      h('dt', null, 'state'),
      h(
        'dd',
        null,
        device.online ? 'online' : 'offline',
        device.last_online_time && [' · last online ', time(device.last_online_time)],
      ),
    ),
    h('button', { type: 'button', onclick: toggle }, device.online ? 'Take offline' : 'Bring online'),
    h('h3', null, `Received (${pushes.length})`),
    pushes.length === 0 &&
      h('p', { class: 'empty' }, 'Nothing received yet: pushes appear here as they are delivered.'),
    h(
      'div',
      { class: 'pushes' },
      pushes.map(p => received(ctx, device, p)),
    ),
  )
}

function registerForm(ctx) {
  const form = h(
    'form',
    {
      class: 'stacked',
      onsubmit: async e => {
        e.preventDefault()
        const tags = form.tags.value
          .split(',')
          .map(t => t.trim())
          .filter(Boolean)
        const body = { platform: form.platform.value, online: form.online.checked, tags }
        if (form.alias.value.trim()) body.alias = form.alias.value.trim()
        if (form.mobile.value.trim()) body.mobile = form.mobile.value.trim()
        const device = await act(e.submitter, () => ctx.api.post('/_sandbox/push/devices', body))
        if (!device) return
        ctx.done(form)
        form.reset()
        location.hash = `#/devices/${device.registration_id}`
        ctx.data.invalidate(['push'])
      },
    },
    field(
      'platform',
      h(
        'select',
        { id: 'new-platform', name: 'platform' },
        Object.entries(PLATFORMS).map(([v, t]) => h('option', { value: v }, t)),
      ),
    ),
    field('alias', h('input', { id: 'new-alias', name: 'alias', autocomplete: 'off' })),
    field('tags (comma-separated)', h('input', { id: 'new-tags', name: 'tags', autocomplete: 'off' })),
    field(
      'mobile (for SMS fallback)',
      h('input', { id: 'new-mobile', name: 'mobile', inputmode: 'tel', autocomplete: 'off' }),
    ),
    h(
      'label',
      { class: 'check' },
      h('input', { id: 'new-online', name: 'online', type: 'checkbox', checked: true }),
      ' online',
    ),
    h('button', { type: 'submit' }, 'Register device'),
  )
  return h('details', { class: 'register' }, h('summary', null, 'Register a device'), form)
}

export const devicesView = {
  id: 'devices',
  label: 'Devices',
  count: state => state.devices.length,
  render(ctx) {
    const [selected] = ctx.route.args
    const received = rid => ctx.state.pushes.filter(p => p.registration_id === rid)
    const shown = ctx.state.devices.filter(d =>
      matches(
        ctx.search,
        d.registration_id,
        d.alias,
        d.mobile,
        d.platform,
        ...d.tags,
        ...received(d.registration_id),
      ),
    )
    const device = ctx.state.devices.find(d => d.registration_id === selected)
    return h(
      'div',
      { class: 'split' },
      h(
        'section',
        { class: 'list', 'aria-labelledby': 'devices-title' },
        h('h2', { id: 'devices-title' }, 'Devices'),
        registerForm(ctx),
        shown.length === 0 && h('p', { class: 'empty' }, 'No device matches.'),
        h(
          'ul',
          { class: 'items' },
          shown.map(d =>
            h(
              'li',
              null,
              h(
                'a',
                {
                  href: `#/devices/${d.registration_id}`,
                  'aria-current': d.registration_id === selected ? 'true' : null,
                },
                h('strong', null, d.registration_id),
                h('span', { class: `badge ${d.online ? 'ok' : 'muted'}` }, d.online ? 'online' : 'offline'),
                h(
                  'span',
                  { class: 'preview' },
                  `${PLATFORMS[d.platform] ?? d.platform}`,
                  d.alias && ` · alias ${d.alias}`,
                  d.tags.length > 0 && ` · tags ${d.tags.join(', ')}`,
                  ` · ${received(d.registration_id).length} received`,
                ),
              ),
            ),
          ),
        ),
      ),
      device
        ? detail(ctx, device)
        : h(
            'p',
            { class: 'detail empty' },
            selected ? `No device ${selected}.` : 'Choose a device to see what it received.',
          ),
    )
  },
}

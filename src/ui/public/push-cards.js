// @ts-check
// A push as the device got it: a notification drawn as its platform shows one, a custom message
// (JPush "message", for the app only), and the click that opens it.

import { act, copyable, h, json, time, toast } from './dom.js'
import { PLATFORMS } from './labels.js'
import { callOf } from './sms.js'

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

export function received(ctx, device, p) {
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

// @ts-check
// The production advisor's warnings (docs/advisor.md): what production would do otherwise with a
// call the sandbox accepted. The Requests view shows them on the call; the device and phone views
// on what the call made (each text's and push's `warnings`, with the call's journal `request_seq`),
// a push's only on the devices they concern.

import { html } from '../lib/html.js'

/** The rules over one maker's configuration (src/advisor/push.ts): they concern its phones only. */
const CHANNEL_RULES = {
  'xiaomi-channel-id': 'xiaomi',
  'oppo-category': 'oppo',
  'oppo-notify-level-category': 'oppo',
  'vivo-classification': 'vivo',
  'honor-importance-high': 'honor',
}

/**
 * Whether a push's warning concerns this device (its twin: platform, maker channel). A rule over
 * the push as a whole (active-push-custom-message, need-backup-without-active-push), or one this
 * table does not know yet, concerns every device it reached.
 * @param {{ rule: string, message: string }} w
 * @param {{ platform: string, channel: string | null }} device
 */
export function concernsDevice(w, device) {
  const vendor = CHANNEL_RULES[w.rule]
  if (vendor) return device.channel === vendor
  if (w.rule === 'hmos-category') return device.platform === 'hmos'
  if (w.rule === 'apns-environment') return device.platform === 'ios'
  // "xiaomi's notification quota (…) is used up…": the vendors its message names (advisor/audience.ts).
  if (w.rule === 'vendor-quota-low' || w.rule === 'vendor-quota-exhausted')
    return device.channel !== null && w.message.includes(`${device.channel}'s `)
  return true
}

const SDK = 'cavlabs/jiguang-sdk-go'
/** A URL; an SDK file with its lines; an issue or pull request (`owner/repo#57`). */
const SOURCE_LINK = new RegExp(
  [
    String.raw`https?:\/\/[^\s,)]+`,
    String.raw`${SDK} ([\w./-]+\.go)(?::(\d+)(?:-(\d+))?)?`,
    String.raw`\b([\w.-]+\/[\w.-]+)#(\d+)`,
  ].join('|'),
  'g',
)

/**
 * A rule's source (its `source` text) with what it cites made links: the vendor's page, the SDK's
 * file at its lines, the SDK tracker's issue. The rest stays text.
 * @param {string} source
 */
export function sourceParts(source) {
  const parts = []
  let at = 0
  for (const m of source.matchAll(SOURCE_LINK)) {
    const index = m.index ?? 0
    if (index > at) parts.push(source.slice(at, index))
    const [text, file, from, to, repo, issue] = m
    const href = file
      ? `https://github.com/${SDK}/blob/HEAD/${file}${from ? `#L${from}${to ? `-L${to}` : ''}` : ''}`
      : repo
        ? `https://github.com/${repo}/issues/${issue}`
        : text
    parts.push(html`<a href=${href} target="_blank" rel="noopener noreferrer">${text}</a>`)
    at = index + text.length
  }
  if (at < source.length) parts.push(source.slice(at))
  return parts
}

/**
 * The warnings as a list: each its rule, what it found, its source and (given `request_seq`) a link
 * to the call in the Requests view.
 * @param {{ warnings: Array<{ rule: string, message: string, source: string, request_seq?: number }> }} props
 */
export function Warnings({ warnings }) {
  if (!warnings || warnings.length === 0) return null
  return html`<ul class="plain warnings" aria-label="Production warnings">
    ${warnings.map(
      w => html`<li key=${`${w.request_seq ?? ''}/${w.rule}`} class="warning" data-rule=${w.rule}>
        <span class="badge warning" title="production would treat this call otherwise (docs/advisor.md)"
          >warning <code class="rule">${w.rule}</code></span
        >
        ${' '}<span class="message">${w.message}</span>
        <span class="muted source"> · source: ${sourceParts(w.source)}</span>
        ${
          w.request_seq !== undefined &&
          html` · <a class="call" href=${`#/requests/${w.request_seq}`}>the call that got it (request ${w.request_seq})</a>`
        }
      </li>`,
    )}
  </ul>`
}

// @ts-check
// How the views show a value: a time (Beijing time, the instant as its tooltip), a value with its
// copy button, a labelled field.

import { beijing, copyText } from '../lib/format.js'
import { html } from '../lib/html.js'
import { act, toast } from './toasts.js'

/** A time element: Beijing time shown, the ISO instant as its machine value and tooltip. */
export function Time({ at }) {
  if (!at) return null
  const iso = new Date(at).toISOString()
  return html`<time datetime=${iso} title=${`${iso} (UTC)`}>${beijing(iso)}</time>`
}

/**
 * A value the user may want elsewhere (a code, a msg_id, a registration_id), with its copy button:
 * `what` names it for screen readers ("Copy msg_id 1a2b…").
 * @param {{ value: string | number, what: string, label?: string, show?: boolean }} props
 */
export function Copyable({ value, what, label = 'Copy', show = true }) {
  const text = String(value)
  const copy = e =>
    act(e.currentTarget, async () => {
      await copyText(text)
      toast(`Copied ${text.length > 40 ? `${what} (${text.length} characters)` : text}`)
    })
  return html`<span class="copyable"
    >${show && html`<code>${text}</code> `}<button type="button" class="copy" aria-label=${`Copy ${what}${show ? ` ${text}` : ''}`} onClick=${copy}>
      ${label}
    </button></span
  >`
}

/** A labelled field: every control has a visible English label. */
export function Field({ label, hint = undefined, children }) {
  return html`<label class="field">
    <span class="label">${label}</span>
    ${children}
    ${hint && html`<small>${hint}</small>`}
  </label>`
}

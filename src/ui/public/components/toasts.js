// @ts-check
// Short messages for everyone, read out by screen readers, and the way a button runs its action.

import { html } from '../lib/html.js'
import { store } from '../lib/store.js'

let next = 1

/** A short message at the corner of the page (an error stays longer). */
export function toast(message, kind = 'info') {
  const id = next++
  store.update(s => ({ toasts: [...s.toasts, { id, message, kind }] }))
  setTimeout(
    () => store.update(s => ({ toasts: s.toasts.filter(t => t.id !== id) })),
    kind === 'error' ? 8000 : 3000,
  )
}

/**
 * Runs an action of a button: disabled while it runs, its failure shown (the control plane's
 * message names the field and the problem).
 * @template T
 * @param {HTMLButtonElement | HTMLElement | null | undefined} button
 * @param {() => Promise<T>} action
 * @returns {Promise<T | undefined>}
 */
export async function act(button, action) {
  const b = /** @type {HTMLButtonElement | null | undefined} */ (button)
  if (b) b.disabled = true
  try {
    return await action()
  } catch (err) {
    toast(err.message, 'error')
    return undefined
  } finally {
    if (b) b.disabled = false
  }
}

/** @param {{ toasts: import('../lib/store.js').Toast[] }} props */
export function Toasts({ toasts }) {
  return html`<div id="toast" role="status" aria-live="polite">
    ${toasts.map(t => html`<p key=${t.id} class=${`toast ${t.kind}`}>${t.message}</p>`)}
  </div>`
}

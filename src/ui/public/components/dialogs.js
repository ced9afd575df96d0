// @ts-check
// Native <dialog>s: focus moves into them, Escape closes them, and the page behind is inert while
// one is open. A dialog is drawn always and opened (showModal) while its `open` says so.

import { useEffect, useRef } from 'preact/hooks'
import { html } from '../lib/html.js'
import { store } from '../lib/store.js'

/**
 * @param {{ id: string, open: boolean, labelledBy: string, onClose: (returnValue: string) => void, children?: any }} props
 */
export function Modal({ id, open, labelledBy, onClose, children }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null))
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.returnValue = ''
      dialog.showModal()
    }
    if (!open && dialog.open) dialog.close()
  }, [open])
  return html`<dialog id=${id} ref=${ref} aria-labelledby=${labelledBy} onClose=${e => onClose(e.currentTarget.returnValue)}>
    ${children}
  </dialog>`
}

/**
 * Asks before something that cannot be undone: resolves true when confirmed.
 * @param {string} question
 * @param {string} label the confirming button's
 * @returns {Promise<boolean>}
 */
export function confirmAction(question, label) {
  return new Promise(resolve => store.set({ confirm: { question, label, resolve } }))
}

/** @param {{ confirm: import('../lib/store.js').Confirm | null }} props */
export function ConfirmDialog({ confirm }) {
  const close = value => {
    confirm?.resolve(value === 'ok')
    store.set({ confirm: null })
  }
  return html`<${Modal} id="confirm" open=${confirm !== null} labelledBy="confirm-text" onClose=${close}>
    <form method="dialog">
      <p id="confirm-text">${confirm?.question}</p>
      <div class="actions">
        <button type="submit" value="ok" id="confirm-ok" class="danger">${confirm?.label ?? 'Confirm'}</button>
        <button type="submit" value="cancel" autofocus>Cancel</button>
      </div>
    </form>
  <//>`
}

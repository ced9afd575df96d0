// @ts-check
// The page is made of Preact components written with htm's tagged templates: JSX's markup in plain
// JavaScript, so the files are served as written (no build step). Preact compares each new render
// with the last and patches the DOM, so what the browser holds (focus, typed text, a caret, open
// <details>, scroll) stays across live updates.

import htm from 'htm'
import { h } from 'preact'

/** html`<p class="empty">No SMS sent yet.</p>`: Preact's elements. */
export const html = htm.bind(h)

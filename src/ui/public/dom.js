// @ts-check
// The few DOM helpers the views share: no library, no build step (README "Web UI").

/** `h('button', { type: 'button', onclick }, 'Approve')`: an element with its attributes and children. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value)
    else if (key === 'class') el.className = value
    else if (key === 'value' || key === 'checked') el[key] = value
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  append(el, children)
  return el
}

function append(el, children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue
    el.append(child instanceof Node ? child : String(child))
  }
}

/** A labelled field: every control has a visible English label. */
export function field(label, control, hint) {
  return h(
    'label',
    { class: 'field' },
    h('span', { class: 'label' }, label),
    control,
    hint && h('small', null, hint),
  )
}

/** A text input whose id is its name (the forms read their fields by name). */
export const input = (id, props = {}) => h('input', { id, name: id, autocomplete: 'off', ...props })
export const number = (id, value) => input(id, { type: 'number', min: 0, step: 1, value: value ?? '' })

/** Whether any of the values contains the search text (case-insensitive); an empty search matches. */
export function matches(search, ...values) {
  if (!search) return true
  const q = search.toLowerCase()
  return values.some(
    v =>
      v !== undefined &&
      v !== null &&
      String(typeof v === 'object' ? JSON.stringify(v) : v)
        .toLowerCase()
        .includes(q),
  )
}

const pad = n => String(n).padStart(2, '0')

/** An instant in Beijing time (UTC+8, no daylight saving), as both vendors show times: `yyyy-MM-dd HH:mm:ss`. */
export function beijing(iso) {
  if (iso === undefined || iso === null) return ''
  const d = new Date(new Date(iso).getTime() + 8 * 3600_000)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** A time element: Beijing time shown, the ISO instant as its machine value and tooltip. */
export function time(iso) {
  if (!iso) return ''
  const at = new Date(iso).toISOString()
  return h('time', { datetime: at, title: `${at} (UTC)` }, beijing(at))
}

/** Pretty JSON for a `<pre>`. */
export const json = value => JSON.stringify(value, null, 2)

/** A short message for everyone, read out by screen readers. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toast')
  const item = h('p', { class: `toast ${kind}` }, message)
  box.append(item)
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 3000)
}

/**
 * Runs an action of a button: disabled while it runs, its failure shown (the control plane's
 * message names the field and the problem).
 */
export async function act(button, action) {
  if (button) button.disabled = true
  try {
    return await action()
  } catch (err) {
    toast(err.message, 'error')
    return undefined
  } finally {
    if (button) button.disabled = false
  }
}

/** Copies text; the clipboard API needs a secure context (localhost is one, a LAN address is not). */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text)
    return
  }
  const area = h('textarea', { readonly: true, class: 'offscreen', 'aria-hidden': 'true' })
  area.value = text
  document.body.append(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}

/**
 * A value the user may want elsewhere (a code, a msg_id, a registration_id), with its copy button:
 * `what` names it for screen readers ("Copy msg_id 1a2b…").
 */
export function copyable(value, what, label = 'Copy') {
  const text = String(value)
  return h(
    'span',
    { class: 'copyable' },
    h('code', null, text),
    ' ',
    h(
      'button',
      {
        type: 'button',
        class: 'copy',
        'aria-label': `Copy ${what} ${text}`,
        onclick: e =>
          act(e.currentTarget, async () => {
            await copyText(text)
            toast(`Copied ${text}`)
          }),
      },
      label,
    ),
  )
}

/** A span of time as a person reads it: `2 days 3 h 5 min`, `40 s`, `0`. */
export function duration(ms) {
  const sign = ms < 0 ? '-' : ''
  let s = Math.round(Math.abs(ms) / 1000)
  const parts = []
  /** @type {Array<[string, number]>} */
  const units = [
    ['day', 86_400],
    ['h', 3600],
    ['min', 60],
  ]
  for (const [unit, size] of units) {
    const n = Math.floor(s / size)
    s -= n * size
    if (n > 0) parts.push(unit === 'day' ? `${n} day${n === 1 ? '' : 's'}` : `${n} ${unit}`)
  }
  if (s > 0 && parts.length < 2) parts.push(`${s} s`)
  return parts.length === 0 ? '0' : sign + parts.join(' ')
}

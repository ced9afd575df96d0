// @ts-check
// Requests: the app's request journal (GET /_sandbox/requests), newest first and live
// (`request.completed`): every /v1 and /v3 call and every /_sandbox write, what it was answered
// and why. A row opens to the reason, the ids the call made (each linked to what it is) and the
// bodies. `#/requests/<seq>` opens one entry; a msg_id filter (a text's "the call that sent it")
// opens what it finds.

import { useEffect, useRef, useState } from 'preact/hooks'
import { Copyable, Time } from '../components/values.js'
import { Warnings } from '../components/warnings.js'
import { REQUESTS_LIMIT as LIMIT, requestsQuery } from '../lib/data.js'
import { count, matches, pretty } from '../lib/format.js'
import { html } from '../lib/html.js'

const OUTCOMES = { '': 'any', '2xx': '2xx (answered)', '4xx': '4xx (refused)', '5xx': '5xx (failed)' }
const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const FILTERS = ['outcome', 'method', 'code', 'path', 'msg_id']
/** The path a page (this one too) trades its credentials on for an event stream's token. */
const TOKEN_PATH = '/_sandbox/events/token'

const outcomeOf = status => `${String(status)[0]}xx`
/** `122 ms`, `3.3 ms`, `0.4 ms`: as precise as it matters. */
const ms = n => `${n >= 10 ? Math.round(n) : Math.round(n * 10) / 10} ms`
const statusClass = status => (status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad')

/** Where an id a call made is shown: a text in its phone, a push on its device. */
function IdLink({ data, surface, msgId }) {
  const message = data.messages.find(m => m.msg_id === msgId)
  if (message) return html`<a href=${`#/phones/${message.mobile}/${msgId}`}>the text to ${message.mobile}</a>`
  const reached = data.pushes.filter(p => p.msg_id === msgId)
  const push = reached[0]
  // A push to several devices (a broadcast, tags) links its first; the count says there are more.
  if (push)
    return html`<a href=${`#/devices/${push.registration_id}`}>the push on ${push.registration_id}</a>${
      reached.length > 1 && ` and ${count(reached.length - 1, 'other device')}`
    }`
  return surface === 'push' ? 'a push' : null
}

/** A body, indented when it is JSON, with its copy button. */
function Body({ title, text, what }) {
  const shown = pretty(text)
  return html`<div class="body-part">
    <h4>${title}${shown && html` <${Copyable} value=${shown} what=${what} show=${false} />`}</h4>
    <pre class="body">${shown || '(none)'}</pre>
  </div>`
}

/** One entry: its summary line, and (opened) why, the ids it made, where it came from, its bodies. */
function Entry({ data, r, open, highlighted }) {
  // Opened at first when a link names it; from then on it is the user's to open and close.
  const [openAtFirst] = useState(open)
  const ids = Object.entries(r.ids ?? {}).flatMap(([name, values]) => values.map(v => [name, v]))
  const own = r.path === TOKEN_PATH
  const classes = [
    'request',
    r.status >= 400 && 'refused',
    r.status >= 500 && 'failed',
    own && 'own',
    highlighted && 'highlight',
  ]
  return html`<details class=${classes.filter(Boolean).join(' ')} data-seq=${r.seq} open=${openAtFirst}>
    <summary>
      <span class=${`badge status ${statusClass(r.status)}`}>${String(r.status)}</span>
      <span class="what"
        ><code>${r.method} ${r.path}</code>${r.code !== null && r.code !== undefined && ` → ${r.code} ${r.message ?? ''}`}${
          own && html`<span class="muted"> (an event stream's token)</span>`
        }</span
      >
      <span class="when">
        ${
          r.warnings?.length > 0 &&
          html`<span class="badge warning" title="production would treat this call otherwise">${
            r.warnings.length === 1 ? '1 warning' : `${r.warnings.length} warnings`
          }</span> `
        }${r.operator && html`<span class="badge">operator</span> `}<${Time} at=${r.at} /> · ${ms(r.duration_ms)}
      </span>
    </summary>
    <div class="request-detail">
      ${r.reason && html`<p class="reason"><strong>Why: </strong>${r.reason}</p>`}
      <${Warnings} warnings=${r.warnings} />
      ${
        ids.length > 0 &&
        html`<ul class="plain">
        ${ids.map(
          ([name, value]) => html`<li key=${`${name}/${value}`}>
            ${name} <${Copyable} value=${value} what=${name} />
            ${name === 'msg_id' && html` · <${IdLink} data=${data} surface=${r.surface} msgId=${value} />`}
          </li>`,
        )}
      </ul>`
      }
      <p class="muted">
        ${`${r.surface} · seq ${r.seq} · from ${r.client ?? '?'}`}${r.user_agent && ` · ${r.user_agent}`}
        ${r.query && html` · query <code>${r.query}</code>`}
      </p>
      <div class="bodies">
        <${Body} title="Request body" text=${r.request_body} what="request body" />
        <${Body} title="Answer" text=${r.answer_body} what="answer body" />
      </div>
    </div>
  </details>`
}

/** The filters as typed; the address (and so the journal read) changes when they are sent. */
function Filters({ route, counts }) {
  const fromRoute = () => Object.fromEntries(FILTERS.map(name => [name, route.params.get(name) ?? '']))
  const [typed, setTyped] = useState(fromRoute)
  // A new address (a link followed, Clear, Back): the fields say what it filters.
  useEffect(() => setTyped(fromRoute()), [route.query])
  const go = values => {
    const q = new URLSearchParams()
    for (const name of FILTERS) {
      const value = values[name].trim()
      if (value) q.set(name, value)
    }
    const query = q.toString()
    location.hash = `#/requests${query ? `?${query}` : ''}`
  }
  const set = name => e => setTyped({ ...typed, [name]: e.currentTarget.value })
  // A choice in a list applies at once; typed text when sent (Enter or Filter).
  const choose = name => e => go({ ...typed, [name]: e.currentTarget.value })
  const text = (name, label, props = {}) =>
    html`<span class="filter">
      <label for=${`filter-${name}`}>${label}</label>
      <input id=${`filter-${name}`} name=${`filter-${name}`} value=${typed[name]} onInput=${set(name)}
        autocomplete="off" spellcheck="false" ...${props} />
    </span>`
  return html`<form class="filters" id="request-filters" role="search" aria-label="Filter the requests"
    onSubmit=${e => {
      e.preventDefault()
      go(typed)
    }}>
    <span class="filter">
      <label for="filter-outcome">Outcome</label>
      <select id="filter-outcome" name="filter-outcome" value=${typed.outcome} onChange=${choose('outcome')}>
        ${Object.entries(OUTCOMES).map(
          ([v, t]) => html`<option value=${v}>${t}${counts ? ` (${counts[v] ?? 0})` : ''}</option>`,
        )}
      </select>
    </span>
    <span class="filter">
      <label for="filter-method">method</label>
      <select id="filter-method" name="filter-method" value=${typed.method.toUpperCase()} onChange=${choose('method')}>
        ${METHODS.map(m => html`<option value=${m}>${m || 'any'}</option>`)}
      </select>
    </span>
    ${text('code', 'code', { inputmode: 'numeric', size: 6 })}
    ${text('path', 'path starts with', { size: 14, placeholder: '/v1/messages' })}
    ${text('msg_id', 'msg_id', { size: 14 })}
    <span class="filter actions">
      <button type="submit">Filter</button>
      <a href="#/requests">Clear</a>
    </span>
  </form>`
}

/**
 * The entry `#/requests/<seq>` names when the list read does not hold it (older than the newest
 * LIMIT, or outside the filters): read alone, as the one entry after seq - 1 (the journal's seqs are
 * the app's, shared with its other items: the next one after seq - 1 is that seq, when it is kept).
 * @returns {any} the entry, 'missing', or undefined (none asked, or not read yet)
 */
function useAlone(s, seq) {
  const [found, setFound] = useState(/** @type {any} */ (undefined))
  useEffect(() => {
    setFound(undefined)
    if (seq === undefined) return
    let live = true
    s.session.api
      .get(`/_sandbox/requests?after=${seq - 1}&limit=1`)
      .then(answer => {
        if (!live) return
        const r = answer.requests[0]
        setFound(r && r.seq === seq ? r : 'missing')
      })
      .catch(() => live && setFound('missing'))
    return () => {
      live = false
    }
  }, [seq])
  return seq === undefined ? undefined : found
}

function RequestsView({ s }) {
  const { route, data } = s
  const query = requestsQuery(route)
  const outcome = route.params.get('outcome') ?? ''
  const msgId = route.params.get('msg_id')
  const [seqArg] = route.args
  const wanted = seqArg && /^\d+$/.test(seqArg) ? Number(seqArg) : undefined
  const current = data.requestsQuery === query
  const read = current ? data.requests : []
  const searched = read.filter(r =>
    matches(s.search, r.path, r.message, r.reason, r.warnings, r.ids, r.request_body, r.answer_body),
  )
  const counts = { '': searched.length }
  for (const r of searched) counts[outcomeOf(r.status)] = (counts[outcomeOf(r.status)] ?? 0) + 1
  const shown = searched.filter(r => !outcome || outcomeOf(r.status) === outcome)
  const problem = data.errors.requests
  // The entry a link names is scrolled to, once.
  const list = useRef(/** @type {HTMLDivElement | null} */ (null))
  const scrolled = useRef(/** @type {number | undefined} */ (undefined))
  const found = wanted !== undefined && shown.some(r => r.seq === wanted)
  const alone = useAlone(
    s,
    current && wanted !== undefined && !read.some(r => r.seq === wanted) ? wanted : undefined,
  )
  useEffect(() => {
    if (!found || scrolled.current === wanted) return
    scrolled.current = wanted
    list.current?.querySelector(`[data-seq="${wanted}"]`)?.scrollIntoView({ block: 'center' })
  }, [wanted, found])
  const filtered = FILTERS.some(name => route.params.get(name)) || s.search !== ''
  return html`<section class="single requests-view" aria-labelledby="requests-title">
    <h2 id="requests-title">Requests</h2>
    <p class="muted">
      Every /v1 and /v3 call of the app and every write to /_sandbox, newest first, with what it was answered and
      why (the request journal). Open one for why, the ids it made and its bodies.
    </p>
    <${Filters} route=${route} counts=${current ? counts : null} />
    ${
      msgId &&
      html`<p>
      The calls that made or named msg_id <${Copyable} value=${msgId} what="msg_id" />
      ${' · back to '}<${IdLink} data=${data} surface="" msgId=${msgId} />
    </p>`
    }
    ${
      current &&
      html`<p class="muted" id="requests-count" role="status">
      ${outcome || s.search ? `${shown.length} of ${count(read.length, 'request')}` : count(shown.length, 'request')}
      ${read.length === LIMIT && ` (the newest ${LIMIT} matching the journal's filters)`}
    </p>`
    }
    ${
      alone &&
      html`<div class="alone">
        <p class="muted" id="request-alone">
          ${
            alone === 'missing'
              ? `Request ${wanted} is not in the journal: it was never made by this app, or is no longer kept (the newest JOURNAL_MAX_PER_APP are).`
              : `Request ${wanted} is older than the list below (the newest ${LIMIT} matching the filters), or does not match them:`
          }
        </p>
        ${alone !== 'missing' && html`<div class="requests"><${Entry} key=${alone.seq} data=${data} r=${alone} open=${true} highlighted=${true} /></div>`}
      </div>`
    }
    ${
      problem
        ? html`<p class="problem">${problem.message}</p>`
        : !current
          ? html`<p class="empty">Loading…</p>`
          : shown.length === 0
            ? html`<p class="empty">
              ${
                read.length === 0 && !filtered
                  ? 'No request yet: each call of this app shows here as soon as it is answered.'
                  : 'No request matches. Change or clear the filters (the search box filters too).'
              }
            </p>`
            : html`<div class="requests" ref=${list}>
              ${shown.map(
                r => html`<${Entry} key=${r.seq} data=${data} r=${r} open=${r.seq === wanted || (!!msgId && shown.length <= 3)}
                  highlighted=${r.seq === wanted} />`,
              )}
            </div>`
    }
  </section>`
}

export { RequestsView as View }

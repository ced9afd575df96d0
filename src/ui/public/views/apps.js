// @ts-check
// The operator's landing: every app the sandbox holds (GET /_sandbox/apps) with its activity — its
// texts, pushes and devices, its requests and refusals, its last request and when —, newest first,
// sortable by each column, filtered by appKey prefix, by how recent its last request is and to the
// apps with refusals, live (`after=` + `wait=`: lib/apps.js). An app opens in place, as Mailpit
// opens a message from its list: the address names it (`?app=`), and Back returns here.

import { useEffect, useState } from 'preact/hooks'
import { Time } from '../components/values.js'
import { APPS_LIMIT, followApps } from '../lib/apps.js'
import { ago, count, duration } from '../lib/format.js'
import { html } from '../lib/html.js'
import { appAddress } from '../lib/route.js'
import { store } from '../lib/store.js'

/** An app whose last request is at most this old is marked active (and stops being so after). */
export const ACTIVE_MS = 60_000
/** How long a row that just changed stands out. */
const FRESH_MS = 4000

/**
 * The columns, what each sorts by, and the way it sorts first (numbers: the largest first).
 * @type {Array<{ key: string, label: string, first: 'asc' | 'desc', of: (a: import('../lib/apps.js').AppSummary) => string | number }>}
 */
const COLUMNS = [
  { key: 'app_key', label: 'appKey', first: 'asc', of: a => a.app_key },
  { key: 'activity', label: 'Last request', first: 'desc', of: a => a.activity },
  { key: 'requests', label: 'Requests', first: 'desc', of: a => a.counts.requests },
  { key: 'refusals', label: 'Refusals', first: 'desc', of: a => a.counts.refusals },
  { key: 'texts', label: 'Texts', first: 'desc', of: a => a.counts.texts },
  { key: 'pushes', label: 'Pushes', first: 'desc', of: a => a.counts.pushes },
  { key: 'devices', label: 'Devices', first: 'desc', of: a => a.counts.devices },
  { key: 'created', label: 'Created', first: 'desc', of: a => a.created_at },
]

const WITHIN = [
  [0, 'any time'],
  [60_000, 'the last minute'],
  [600_000, 'the last 10 minutes'],
  [3_600_000, 'the last hour'],
  [86_400_000, 'the last day'],
]

/** @param {Partial<import('../lib/apps.js').AppsState>} patch */
const setApps = patch => store.update(s => ({ apps: { ...s.apps, ...patch } }))

/** Now, and a redraw every second: relative times, and "active" marks that wear off. */
function useNow() {
  const [, tick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => tick(n => n + 1), 1000)
    return () => clearInterval(timer)
  }, [])
  return Date.now()
}

function SortButton({ column, sort }) {
  const active = sort.key === column.key
  const next = active ? (sort.dir === 'asc' ? 'desc' : 'asc') : column.first
  const arrow = active ? (sort.dir === 'asc' ? '▲' : '▼') : ''
  return html`<button type="button" class="sort" onClick=${() => setApps({ sort: { key: column.key, dir: next } })}
    title=${`Sort by ${column.label.toLowerCase()}, ${next === 'asc' ? 'ascending' : 'descending'}`}>
    ${column.label}${arrow && html`<span aria-hidden="true"> ${arrow}</span>`}
  </button>`
}

function LastRequest({ app, now, onOpen }) {
  const last = app.last_request
  if (!app.last_request_at) return html`<span class="muted">none yet</span>`
  const when = Date.parse(app.last_request_at)
  const said = last && (last.code !== null ? ` → ${last.code} ${last.message ?? ''}` : '')
  return html`<span class="last-request">
    ${
      last &&
      html`<a href=${appAddress(app.app_key, `#/requests/${last.seq}`)} onClick=${onOpen(app.app_key, `#/requests/${last.seq}`)}
      title="Open it in the app's journal"
      ><span class=${`badge ${last.status < 300 ? 'ok' : last.status < 500 ? 'warn' : 'bad'}`}>${last.status}</span>${' '}
      <code>${last.method} ${last.path}</code>${said}${
        last.path === '/_sandbox/events/token' && html`<span class="muted"> (an event stream's token)</span>`
      }</a
    >`
    }
    <small class="muted"><time datetime=${app.last_request_at} title=${app.last_request_at}>${ago(now - when)}</time></small>
  </span>`
}

function Row({ app, now, fresh, onOpen }) {
  const last = app.last_request_at ? Date.parse(app.last_request_at) : 0
  const active = last > 0 && now - last <= ACTIVE_MS
  const c = app.counts
  const classes = [fresh && 'fresh', c.refusals > 0 && 'refused'].filter(Boolean).join(' ')
  return html`<tr data-app-key=${app.app_key} class=${classes}>
    <td data-label="appKey">
      <a class="app-link" href=${appAddress(app.app_key)} onClick=${onOpen(app.app_key)}><code>${app.app_key}</code></a>
      ${active && html` <span class="badge ok" title="A request in the last minute">active</span>`}
      ${
        app.clock.offset_ms !== 0 &&
        html` <small class="muted" title="The app's clock">clock +${duration(app.clock.offset_ms)}</small>`
      }
    </td>
    <td data-label="Last request"><${LastRequest} app=${app} now=${now} onOpen=${onOpen} /></td>
    <td data-label="Requests" class="num">${c.requests}</td>
    <td data-label="Refusals" class=${`num${c.refusals > 0 ? ' bad' : ''}`}>${c.refusals}</td>
    <td data-label="Texts" class="num">${c.texts}</td>
    <td data-label="Pushes" class="num">${c.pushes}</td>
    <td data-label="Devices" class="num">${c.devices}</td>
    <td data-label="Created"><${Time} at=${app.created_at} /></td>
  </tr>`
}

/**
 * @param {{ s: import('../lib/store.js').State, onOpen: (appKey: string, hash?: string) => void }} props
 */
export function AppsView({ s, onOpen }) {
  const { apps } = s
  const now = useNow()
  // The feed follows the prefix typed (a moment after the last key), until the list is left.
  useEffect(() => {
    const credentials = s.credentials
    if (!credentials) return
    let feed
    const start = setTimeout(() => {
      setApps({ status: 'connecting' })
      feed = followApps(credentials, apps.prefix, { read: () => store.get().apps, write: setApps })
    }, 150)
    return () => {
      clearTimeout(start)
      feed?.stop()
    }
  }, [apps.prefix, s.credentials])

  const open = (appKey, hash) => e => {
    // A click with a modifier opens a new tab, as a link does.
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1) return
    e.preventDefault()
    onOpen(appKey, hash)
  }
  const column = COLUMNS.find(c => c.key === apps.sort.key) ?? COLUMNS[1]
  const sign = apps.sort.dir === 'asc' ? 1 : -1
  const shown = apps.list
    .filter(a => !apps.refusedOnly || a.counts.refusals > 0)
    .filter(
      a => !apps.within || (a.last_request_at !== null && now - Date.parse(a.last_request_at) <= apps.within),
    )
    .sort((a, b) => {
      const x = column.of(a)
      const y = column.of(b)
      // Ties: the most recently active first.
      return (x < y ? -sign : x > y ? sign : 0) || b.activity - a.activity
    })
  const total = shown.reduce((sum, a) => sum + a.counts.requests, 0)
  const refused = shown.reduce((sum, a) => sum + a.counts.refusals, 0)
  const filtered = apps.refusedOnly || apps.within > 0
  const direction = apps.sort.dir === 'asc' ? 'ascending' : 'descending'
  return html`<section class="single apps-view" aria-labelledby="apps-title">
    <h2 id="apps-title">Apps</h2>
    <p class="muted">
      Every app this sandbox holds, the most recently active first, live: a CI job's tests each make one. Open an
      app to see and steer it as its own credentials would.
    </p>
    ${s.notice && html`<p class="problem-inline" role="alert">${s.notice}</p>`}
    <form class="filters" role="search" aria-label="Filter the apps" onSubmit=${e => e.preventDefault()}>
      <span class="filter">
        <label for="apps-prefix">appKey starts with</label>
        <input id="apps-prefix" type="search" autocomplete="off" spellcheck="false" size="24" value=${apps.prefix}
          onInput=${e => setApps({ prefix: e.currentTarget.value.trim() })} />
      </span>
      <span class="filter">
        <label for="apps-within">Last request within</label>
        <select id="apps-within" value=${String(apps.within)} onChange=${e => setApps({ within: Number(e.currentTarget.value) })}>
          ${WITHIN.map(([ms, label]) => html`<option value=${String(ms)}>${label}</option>`)}
        </select>
      </span>
      <span class="filter narrow-only">
        <label for="apps-sort">Sort by</label>
        <select id="apps-sort" value=${apps.sort.key}
          onChange=${e => {
            const key = e.currentTarget.value
            setApps({ sort: { key, dir: COLUMNS.find(c => c.key === key)?.first ?? 'desc' } })
          }}>
          ${COLUMNS.map(c => html`<option value=${c.key}>${c.label}</option>`)}
        </select>
      </span>
      <label class="check filter"
        ><input id="apps-refused" type="checkbox" checked=${apps.refusedOnly}
          onChange=${e => setApps({ refusedOnly: e.currentTarget.checked })} />
        only apps with refusals</label
      >
    </form>
    <p class="muted" id="apps-summary">
      ${
        !apps.loaded
          ? apps.error
            ? `Could not list the apps: ${apps.error}`
            : 'Loading…'
          : `${count(shown.length, 'app')}${filtered ? ` of ${apps.list.length}` : ''} · ${count(total, 'request')} · ${refused} refused`
      }
      ${apps.list.length === APPS_LIMIT && ` (the ${APPS_LIMIT} most recently active: narrow them with a prefix)`}
      ${apps.loaded && apps.error && ` · ${apps.error}: reconnecting…`}
    </p>
    ${
      apps.loaded &&
      (shown.length === 0
        ? html`<p class="empty">${apps.list.length === 0 ? 'No app has this prefix.' : 'No app matches these filters.'}</p>`
        : html`<div class="table-wrap">
          <table class="stack apps-table" id="apps">
            <caption class="visually-hidden">Apps, by ${column.label.toLowerCase()}, ${direction}</caption>
            <thead>
              <tr>
                ${COLUMNS.map(
                  c => html`<th scope="col" class=${c.key === 'app_key' || c.key === 'activity' || c.key === 'created' ? '' : 'num'}
                    aria-sort=${c.key === apps.sort.key ? direction : null}><${SortButton} column=${c} sort=${apps.sort} /></th>`,
                )}
              </tr>
            </thead>
            <tbody>
              ${shown.map(
                a => html`<${Row} key=${a.app_key} app=${a} now=${now} onOpen=${open}
                  fresh=${now - (apps.changedAt[a.app_key] ?? 0) < FRESH_MS} />`,
              )}
            </tbody>
          </table>
        </div>`)
    }
  </section>`
}

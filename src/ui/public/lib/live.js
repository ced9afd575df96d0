// @ts-check
// Live updates: the app's Server-Sent Events (GET /_sandbox/events). An EventSource cannot send an
// Authorization header, so the page first trades its Basic credentials for a short-lived token
// (POST /_sandbox/events/token) that opens this app's stream and nothing else. An open stream
// outlives its token; when it breaks, the EventSource reconnects by itself (with Last-Event-ID),
// and once the token is refused the page fetches a new one and resumes after the last event seen.

import { EVENT_TOPICS } from './data.js'

const EVENT_TYPES = Object.keys(EVENT_TOPICS)

const RETRY_MS = 2000

/**
 * Follows the app's events: `onEvent(type, data)` for each, `onOpen()` each time the stream
 * (re)opens (what happened while it was closed is then read again), `onStatus(text)` for the page.
 */
export function follow(api, { onEvent, onOpen, onStatus }) {
  let source
  let retry
  let stopped = false
  let last

  const again = () => {
    onStatus('reconnecting')
    clearTimeout(retry)
    retry = setTimeout(open, RETRY_MS)
  }

  async function open() {
    if (stopped) return
    let token
    try {
      token = (await api.post('/_sandbox/events/token')).token
    } catch {
      again()
      return
    }
    if (stopped) return
    const query = new URLSearchParams({ token })
    if (last !== undefined) query.set('after', String(last))
    source = new EventSource(`/_sandbox/events?${query}`)
    const handle = event => {
      if (event.lastEventId) last = Number(event.lastEventId)
      let data
      try {
        data = JSON.parse(event.data)
      } catch {
        data = undefined
      }
      onEvent(event.type, data)
    }
    for (const type of EVENT_TYPES) source.addEventListener(type, handle)
    source.onmessage = handle
    source.onopen = () => {
      onStatus('live')
      onOpen()
    }
    source.onerror = () => {
      // CLOSED: the stream was refused (an expired token, the app removed): a new token, then again.
      if (source.readyState !== EventSource.CLOSED) return onStatus('reconnecting')
      source.close()
      again()
    }
  }

  open()
  return {
    stop() {
      stopped = true
      clearTimeout(retry)
      source?.close()
    },
  }
}

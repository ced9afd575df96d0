import { listRoute } from '../control/list-route.js'
import type { Hub } from '../events/hub.js'
import type { StreamSource } from '../events/stream.js'
import type { RouteSpec } from '../http/routes.js'
import { items } from '../items/items.js'
import { requestItem } from '../items/views.js'
import type { Store } from '../store/index.js'

const JOURNAL = `The request journal: every /v1 and /v3 request that named the app (also one refused for its
credentials), and every write to /_sandbox, newest first, with what was answered and **why**: \`reason\`
names the rule, limit, setting or armed fault that decided ("template 5 was rejected in review",
"mobile 13800138000 had 3 notifications…: JSMS frequency limit", "fault #2 … armed for this
request"); it is never part of the vendor's answer. Bodies are kept as text, at most 4 KB each, with
secrets redacted. The newest JOURNAL_MAX_PER_APP (1000) are kept; a reset or removal clears them.
Each is also a \`request.completed\` event. \`path\` is a prefix; \`msg_id\` matches the ids a request
created or named in its path. \`warnings\` are the production advisor's (docs/advisor.md): what
production would do otherwise with an accepted call; \`warning=<rule>\` (or \`any\`) lists the calls
that got one.`

/** GET /_sandbox/requests: the calling app's request journal (http/journal.ts records it). */
export function requestRoutes(deps: { store: Store; hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/requests',
      summary: "The app's request journal: every call, its answer and why",
      description: JOURNAL,
      key: 'requests',
      filters: ['method', 'path', 'status', 'code', 'msg_id', 'warning'],
      item: items.request,
      topic: 'requests',
      read: (appKey, q) => store.requests.list(appKey, q).map(requestItem),
    }),
  ]
}

/** `request.completed` in the event stream: the journal's entries, each as GET /_sandbox/requests shows it. */
export const requestSource = (store: Pick<Store, 'requests'>): StreamSource => ({
  type: 'request.completed',
  list: (appKey, window) =>
    store.requests.list(appKey, window).map(r => ({ seq: r.seq, data: () => requestItem(r) })),
})

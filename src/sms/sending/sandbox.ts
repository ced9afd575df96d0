import { sandboxErrors } from '../../control/errors.js'
import { type ListQuery, listQuery } from '../../control/list-query.js'
import { listRoute, readOrWait, waitErrors } from '../../control/list-route.js'
import { warnedCalls, withWarnings } from '../../control/warned.js'
import type { Hub } from '../../events/hub.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { codeItem, sendingItems as items, messageItem } from './items.js'

const noCode = sandboxErrors.noCode

const MESSAGE_KINDS = ['code', 'voice_code', 'template'] as const
const CODE_KINDS = ['code', 'voice_code'] as const
const codeFilters = ['mobile', 'msg_id', 'kind'] as const
const codeQuery = listQuery(codeFilters, { kind: CODE_KINDS }, { single: true })

/** What the real service hides: the texts that went out and the codes in them. */
export function smsInspectRoutes(deps: { store: Store; hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/sms/messages',
      summary: 'Texts the app sent, codes included',
      key: 'messages',
      filters: ['mobile', 'msg_id', 'kind'],
      values: { kind: MESSAGE_KINDS },
      item: items.message,
      topic: 'sms',
      read: (appKey, q) => {
        const warned = warnedCalls(store, appKey)
        return store.messages.list(appKey, { ...q, msgId: q.msg_id }).map(m => ({
          ...messageItem(m),
          // A scheduled text: the schedule's call was warned (sms-marketing-hours at its send_time).
          ...withWarnings([...warned('msg_id', m.msgId), ...warned('schedule_id', m.scheduleId)]),
        }))
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/sms/codes/latest',
      docs: {
        summary: 'The latest verification code (of a mobile)',
        description: `The newest code matching the filters; with \`after=<seq>\`, only a newer one, and
with \`wait=<ms>\` (at most 30000) the request is held until one is sent. 404 90044 when there is none.`,
        errors: [
          noCode(),
          sandboxErrors.invalidField('"wait": must be milliseconds from 0 to 30000'),
          ...waitErrors,
        ],
      },
      schema: { querystring: codeQuery, response: { 200: items.code } },
      handler: async (req, reply) => {
        const q = req.query as ListQuery<(typeof codeFilters)[number]>
        const { appKey } = req.tenant.app
        const code = await readOrWait(deps, req, reply, 'sms', q.wait, () =>
          store.codes.latest(appKey, { ...q, msgId: q.msg_id }),
        )
        if (!code) throw noCode()
        return codeItem(code)
      },
    }),
  ]
}

import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import { optionalString } from '../../http/body/fields.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import { pushClicked } from '../../push/delivery/callbacks.js'
import { recordClick } from '../../push/delivery/clicks.js'
import { invalidControlBody } from '../dialect.js'
import { iso } from '../schemas.js'

const noRid = () => invalidControlBody('"registration_id" must be a non-empty string')

function readRid(value: unknown): string {
  const rid = optionalString(value, noRid)
  if (rid === undefined) throw noRid()
  return rid
}

const schemas = {
  params: z.object({ msg_id: z.string() }),
  click: z.object({ registration_id: readBy(readRid) }),
  clicked: z.object({
    msg_id: z.string(),
    registration_id: z.string(),
    platform: z.string(),
    kind: z.enum(['notification', 'message']),
    clicked_at: z.string(),
  }),
}

/**
 * A device opens a push it received (issue 12 §5): counted by `/v3/messages`,
 * `/v3/messages/detail` and `/v3/users`. Once per device and push; a repeat answers the first.
 */
export function pushClickRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'POST',
      url: '/push/messages/:msg_id/clicks',
      schema: { params: schemas.params, body: schemas.click, response: { 200: schemas.clicked } },
      handler: async req => {
        const { app } = req.tenant
        const now = req.tenant.now()
        // In the click's own write, and only for a first click: the push's `callback` with the
        // "clicked" type bit, and the push.clicked event (heard once the write is durable).
        return store.write(() => {
          const { click, first } = recordClick(deps, app, req.params.msg_id, req.body.registration_id, now)
          const clicked = {
            msg_id: click.msgId,
            registration_id: click.registrationId,
            platform: click.platform,
            kind: click.kind,
            clicked_at: iso(click.clickedAt),
          }
          if (first) {
            pushClicked(deps, app, click.msgId, click.registrationId, now)
            store.events.append({ appKey: app.appKey, type: 'push.clicked', data: clicked, at: now })
          }
          return clicked
        })
      },
    }),
  ]
}

import { z } from 'zod'
import { invalidControlBody } from '../../control/dialect.js'
import { sandboxErrors } from '../../control/errors.js'
import type { PipelineDeps } from '../../deps.js'
import { optionalString } from '../../http/body/fields.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import type { App } from '../../store/apps/apps.js'
import { iso } from '../../time.js'
import { isObject } from '../values.js'
import type { Click, ClickKind } from './clicks-table.js'
import { pushClicked } from './delivery/callbacks.js'
import { parseNotification } from './notification.js'
import type { Push } from './pushes-table.js'

// A device opens a push (issue 12 §5): what the real service learns from its SDK, steered here by
// the control plane. Counted by the report host (push/report/counts.ts) and the user statistics.

/**
 * Why a click is refused, in the control plane's envelope: 404 for what is not the app's, 409 for
 * a device that has nothing to open (a click needs a push the device received).
 */
export const clickErrors = {
  noPush: (msgId: string) => sandboxErrors.unknownMsgId(`no push with msg_id ${msgId} in this app`),
  noDevice: (rid: string) =>
    sandboxErrors.unknownRegistrationId(`no device with registration_id ${rid} in this app`),
  notReceived: (rid: string, msgId: string, why: string) =>
    sandboxErrors.notReceived(`registration_id ${rid} has not received msg_id ${msgId}: ${why}`),
}

/** What a device of this platform shows: the push's notification for it, else its message. */
function kindOf(push: Push, platform: Click['platform']): ClickKind {
  const notification = isObject(push.payload.notification) ? parseNotification(push.payload.notification) : {}
  return notification[platform] === undefined && push.payload.message !== undefined
    ? 'message'
    : 'notification'
}

/**
 * Records that `rid` opened `msgId` at `now`, inside a write job. Once per device and push (a
 * notification leaves the tray when opened): a repeat answers the first click, with `first` false.
 */
export function recordClick(
  deps: Pick<PipelineDeps, 'store'>,
  app: App,
  msgId: string,
  rid: string,
  now: number,
): { click: Click; first: boolean } {
  const { store } = deps
  const push = store.pushes.get(app.appKey, msgId)
  if (!push) throw clickErrors.noPush(msgId)
  const device = store.pushDevices.get(app.appKey, rid)
  if (!device) throw clickErrors.noDevice(rid)
  const earlier = store.pushClicks.get(app.appKey, msgId, rid)
  if (earlier) return { click: earlier, first: false }
  const [delivery] = store.pushDeliveries.search(app.appKey, { rid, msgId })
  if (!delivery) throw clickErrors.notReceived(rid, msgId, 'the device was not in its audience')
  if (delivery.deliveredAt === null) {
    throw clickErrors.notReceived(
      rid,
      msgId,
      delivery.status === 'pending'
        ? 'the device is offline (the push arrives when it comes online within time_to_live)'
        : `the push is ${delivery.status}`,
    )
  }
  const click: Click = {
    msgId,
    appKey: app.appKey,
    registrationId: rid,
    platform: delivery.platform,
    kind: kindOf(push, delivery.platform),
    clickedAt: now,
  }
  store.pushClicks.insert(click)
  return { click, first: true }
}

const noRid = () => invalidControlBody('"registration_id" must be a non-empty string')

function readRid(value: unknown): string {
  const rid = optionalString(value, noRid)
  if (rid === undefined) throw noRid()
  return rid
}

export const schemas = {
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
      docs: {
        summary: 'A device opens a push it received',
        description: `Counted by the report host's click statistics (/v3/messages, /v3/messages/detail, /v3/users) and
sent to the push's \`callback\` when it asks for clicks. Once per device and push (a notification leaves the
tray when opened): a repeat answers the first click. Event: \`push.clicked\`.`,
        errors: [
          clickErrors.noPush('<msg_id>'),
          clickErrors.noDevice('<registration_id>'),
          clickErrors.notReceived('<registration_id>', '<msg_id>', 'the device was not in its audience'),
        ],
      },
      schema: { params: schemas.params, body: schemas.click, response: { 200: schemas.clicked } },
      handler: async req => {
        const { app } = req.tenant
        const now = req.tenant.now()
        // In the click's own write, and only for a first click: the push's `callback` with the
        // "clicked" type bit, and the push.clicked event (heard once the write is durable).
        return store.write({ announces: ['push.clicked'] }, () => {
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

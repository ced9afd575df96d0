import { z } from 'zod'
import { devicesChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { field, jsonBody, params } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { formatLocal } from '../../time.js'
import { deviceErrors as e } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isWellFormedRid, stringArray } from '../values.js'
import {
  addTags,
  aliasChange,
  badRid,
  bindAlias,
  deviceObject,
  mobileChange,
  readAlias,
  requireDevice,
  rid,
  tagChanges,
  tagLimit,
} from './fields.js'

// The device host's devices (jpush-api.md §7). Device writes answer `{}`: an empty 200 would hang
// jpush-async and break the ruby client (jpush-api.md §10 question 1), and no client reads the body.

const TWO_DAYS = 2 * 86_400_000

export const done = z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).')

const ridParams = params({ registration_id: rid })

const registrationIds = field({
  read(value): string[] {
    const ids = stringArray(value)
    if (!ids || ids.length === 0) throw e.invalid('registration_ids must be a non-empty array')
    if (ids.length > PUSH_LIMITS.ridsPerOperation) throw e.invalid('registration_ids has too many ids')
    return ids
  },
  schema: z.array(z.string()).min(1).max(PUSH_LIMITS.ridsPerOperation),
  errors: [
    e.invalid('registration_ids must be a non-empty array'),
    e.invalid('registration_ids has too many ids'),
  ],
})

export function deviceRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    vendorRoute({
      method: 'GET',
      url: '/devices/:registration_id',
      summary: "A device's tags, alias and mobile (jpush-api.md §7)",
      reads: { params: ridParams },
      checks: [badRid],
      answer: z.object({
        tags: z.array(z.string()),
        alias: z.string().nullable(),
        mobile: z.string().nullable(),
      }),
      handler: async (req, { params }) => {
        const d = requireDevice(store, req.tenant.app.appKey, params.registration_id)
        return { tags: d.tags, alias: d.alias, mobile: d.mobile }
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/devices/:registration_id',
      summary: "Change a device's tags, alias or mobile (jpush-api.md §7)",
      reads: {
        params: ridParams,
        body: jsonBody(deviceObject, { tags: tagChanges, alias: aliasChange, mobile: mobileChange }),
      },
      checks: [badRid, tagLimit(), e.invalid("alias 'a b' is invalid"), e.aliasFull()],
      answer: done,
      handler: async (req, { params, body }) => {
        const { registration_id: id } = params
        const { tags, alias, mobile } = body
        const appKey = req.tenant.app.appKey
        await store.write({ announces: ['device.changed'] }, () => {
          const device = requireDevice(store, appKey, id)
          if (tags === '') store.pushDevices.clearTags(appKey, id)
          else if (tags && typeof tags === 'object') {
            store.pushDevices.removeTags(appKey, id, tags.remove)
            addTags(store, { ...device, tags: device.tags.filter(t => !tags.remove.includes(t)) }, tags.add)
          }
          if (alias === '') store.pushDevices.setAlias(appKey, id, null)
          else if (typeof alias === 'string') bindAlias(store, appKey, id, readAlias(alias))
          if (mobile !== undefined) store.pushDevices.setMobile(appKey, id, mobile === '' ? null : mobile)
          devicesChanged(store, appKey, 'updated', [id], req.tenant.now())
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/devices/status',
      summary: 'Which devices are online (jpush-api.md §7)',
      reads: { body: jsonBody(deviceObject, { registration_ids: registrationIds }) },
      answer: z.record(
        z.string(),
        z
          .object({
            online: z.boolean(),
            last_online_time: z.string().describe('yyyy-MM-dd HH:mm:ss').optional(),
          })
          // null: not a device of the app.
          .nullable(),
      ),
      handler: async (req, { body }) => {
        const now = req.tenant.now()
        const out: Record<string, { online: boolean; last_online_time?: string } | null> = {}
        for (const id of body.registration_ids) {
          const d = isWellFormedRid(id) ? store.pushDevices.get(req.tenant.app.appKey, id) : undefined
          if (!d) out[id] = null
          else if (d.online) out[id] = { online: true }
          // No last_online_time: not seen for more than two days (docs2019).
          else if (d.lastOnlineAt === null || now - d.lastOnlineAt > TWO_DAYS) out[id] = { online: false }
          else
            out[id] = { online: false, last_online_time: formatLocal(d.lastOnlineAt, deps.config.timeZone) }
        }
        return out
      },
    }),
  ]
}

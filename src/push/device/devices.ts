import type { AppDeps } from '../../deps.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { formatLocal } from '../../time.js'
import { deviceErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isWellFormedRid, scalarText, stringArray } from '../values.js'
import { deviceStatusDocs, readDeviceDocs, updateDeviceDocs } from './docs.js'
import { addTags, bindAlias, readAlias, readDeviceBody, readTagChanges, requireDevice } from './fields.js'

type RidParams = { registration_id: string }

const MOBILE = /^\+?\d{5,20}$/
const TWO_DAYS = 2 * 86_400_000

// Device writes answer `{}`: an empty 200 would hang jpush-async and break the ruby client
// (jpush-api.md §10 question 1), and no client reads the body.
export function deviceRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    route<{ Params: RidParams }>({
      method: 'GET',
      url: '/devices/:registration_id',
      docs: readDeviceDocs,
      handler: async req => {
        const { registration_id: rid } = req.params
        const d = requireDevice(store, req.tenant.app.appKey, rid)
        return { tags: d.tags, alias: d.alias, mobile: d.mobile }
      },
    }),
    route<{ Params: RidParams }>({
      method: 'POST',
      url: '/devices/:registration_id',
      docs: updateDeviceDocs,
      handler: async req => {
        const { registration_id: rid } = req.params
        const body = readDeviceBody(req.body)
        const appKey = req.tenant.app.appKey
        const tags =
          body.tags === '' || body.tags === undefined || body.tags === null
            ? body.tags
            : readTagChanges(body.tags)
        const alias = body.alias
        if (alias !== undefined && alias !== null && alias !== '' && typeof alias !== 'string') {
          throw deviceErrors.invalid('alias must be a string')
        }
        const mobile = body.mobile === undefined || body.mobile === null ? undefined : scalarText(body.mobile)
        if (mobile === undefined ? body.mobile != null : mobile !== '' && !MOBILE.test(mobile))
          throw deviceErrors.invalid('mobile is invalid')
        await store.write(() => {
          const device = requireDevice(store, appKey, rid)
          if (tags === '') store.pushDevices.clearTags(appKey, rid)
          else if (tags && typeof tags === 'object') {
            store.pushDevices.removeTags(appKey, rid, tags.remove)
            addTags(store, { ...device, tags: device.tags.filter(t => !tags.remove.includes(t)) }, tags.add)
          }
          if (alias === '') store.pushDevices.setAlias(appKey, rid, null)
          else if (typeof alias === 'string') bindAlias(store, appKey, rid, readAlias(alias))
          if (mobile !== undefined) store.pushDevices.setMobile(appKey, rid, mobile === '' ? null : mobile)
        })
        return {}
      },
    }),
    {
      method: 'POST',
      url: '/devices/status',
      docs: deviceStatusDocs,
      handler: async req => {
        const body = readDeviceBody(req.body)
        const rids = stringArray(body.registration_ids)
        if (!rids || rids.length === 0)
          throw deviceErrors.invalid('registration_ids must be a non-empty array')
        if (rids.length > PUSH_LIMITS.ridsPerOperation)
          throw deviceErrors.invalid('registration_ids has too many ids')
        const now = req.tenant.now()
        const out: Record<string, unknown> = {}
        for (const rid of rids) {
          const d = isWellFormedRid(rid) ? store.pushDevices.get(req.tenant.app.appKey, rid) : undefined
          if (!d) out[rid] = null
          else if (d.online) out[rid] = { online: true }
          // No last_online_time: not seen for more than two days (docs2019).
          else if (d.lastOnlineAt === null || now - d.lastOnlineAt > TWO_DAYS) out[rid] = { online: false }
          else
            out[rid] = { online: false, last_online_time: formatLocal(d.lastOnlineAt, deps.config.timeZone) }
        }
        return out
      },
    },
  ]
}

import { queryParam } from '../http/query.js'
import type { RouteSpec } from '../http/routes.js'
import type { PushDeps } from './context.js'
import {
  addTags,
  readDeviceBody,
  readPlatforms,
  readRidChanges,
  readTag,
  requireDevice,
} from './device-fields.js'

export function tagRoutes(deps: PushDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/tags',
      handler: async req => ({ tags: store.pushDevices.tags(req.tenant.app.appKey) }),
    },
    {
      method: 'GET',
      url: '/tags/:tag/registration_ids/:registration_id',
      handler: async req => {
        const p = req.params as { tag: string; registration_id: string }
        const tag = readTag(p.tag)
        const device = requireDevice(store, req.tenant.app.appKey, p.registration_id)
        return { result: device.tags.includes(tag) }
      },
    },
    {
      method: 'POST',
      url: '/tags/:tag',
      handler: async req => {
        const tag = readTag((req.params as { tag: string }).tag)
        const body = readDeviceBody(req.body)
        const appKey = req.tenant.app.appKey
        await store.write(() => {
          const { add, remove } = readRidChanges(store, appKey, body, ['add', 'remove'])
          for (const rid of add) addTags(store, requireDevice(store, appKey, rid), [tag])
          for (const rid of remove) store.pushDevices.removeTags(appKey, rid, [tag])
        })
        return {}
      },
    },
    {
      method: 'DELETE',
      url: '/tags/:tag',
      handler: async req => {
        const tag = readTag((req.params as { tag: string }).tag)
        const platforms = readPlatforms(queryParam(req.query, 'platform'))
        const appKey = req.tenant.app.appKey
        // 200 also for a tag nobody carries (rb tests).
        await store.write(() => {
          for (const d of store.pushDevices.byTag(appKey, tag)) {
            if (platforms.includes(d.platform)) store.pushDevices.removeTags(appKey, d.registrationId, [tag])
          }
        })
        return {}
      },
    },
  ]
}

import type { AppDeps } from '../../deps.js'
import { firstValue, type QueryValue } from '../../http/body/query.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { deleteTagDocs, tagMemberDocs, tagsDocs, updateTagDocs } from './docs.js'
import {
  addTags,
  readDeviceBody,
  readDeviceTag,
  readPlatforms,
  readRidChanges,
  requireDevice,
} from './fields.js'

export function tagRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/tags',
      docs: tagsDocs,
      handler: async req => ({ tags: store.pushDevices.tags(req.tenant.app.appKey) }),
    },
    route<{ Params: { tag: string; registration_id: string } }>({
      method: 'GET',
      url: '/tags/:tag/registration_ids/:registration_id',
      docs: tagMemberDocs,
      handler: async req => {
        const tag = readDeviceTag(req.params.tag)
        const device = requireDevice(store, req.tenant.app.appKey, req.params.registration_id)
        return { result: device.tags.includes(tag) }
      },
    }),
    route<{ Params: { tag: string } }>({
      method: 'POST',
      url: '/tags/:tag',
      docs: updateTagDocs,
      handler: async req => {
        const tag = readDeviceTag(req.params.tag)
        const body = readDeviceBody(req.body)
        const appKey = req.tenant.app.appKey
        await store.write(() => {
          const { add, remove } = readRidChanges(store, appKey, body, ['add', 'remove'])
          for (const rid of add) addTags(store, requireDevice(store, appKey, rid), [tag])
          for (const rid of remove) store.pushDevices.removeTags(appKey, rid, [tag])
        })
        return {}
      },
    }),
    route<{ Params: { tag: string }; Querystring: { platform?: QueryValue } }>({
      method: 'DELETE',
      url: '/tags/:tag',
      docs: deleteTagDocs,
      handler: async req => {
        const tag = readDeviceTag(req.params.tag)
        const platforms = readPlatforms(firstValue(req.query.platform))
        const appKey = req.tenant.app.appKey
        // 200 also for a tag nobody carries (rb tests).
        await store.write(() => {
          for (const d of store.pushDevices.byTag(appKey, tag)) {
            if (platforms.includes(d.platform)) store.pushDevices.removeTags(appKey, d.registrationId, [tag])
          }
        })
        return {}
      },
    }),
  ]
}

import { z } from 'zod'
import { devicesChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { jsonBody, params, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { done } from './devices.js'
import {
  addTags,
  badRid,
  deviceObject,
  platforms,
  requireDevice,
  rid,
  ridChanges,
  tag,
  tagLimit,
} from './fields.js'

// The device host's tags (jpush-api.md §7).

const tagParams = params({ tag })

export function tagRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  const changes = ridChanges(['add', 'remove'])
  return [
    vendorRoute({
      method: 'GET',
      url: '/tags',
      summary: "The app's tags (jpush-api.md §7)",
      answer: z.object({ tags: z.array(z.string()) }),
      handler: async req => ({ tags: store.pushDevices.tags(req.tenant.app.appKey) }),
    }),
    vendorRoute({
      method: 'GET',
      url: '/tags/:tag/registration_ids/:registration_id',
      summary: 'Whether a device carries a tag (jpush-api.md §7)',
      reads: { params: params({ tag, registration_id: rid }) },
      checks: [badRid],
      answer: z.object({ result: z.boolean() }),
      handler: async (req, { params }) => {
        const device = requireDevice(store, req.tenant.app.appKey, params.registration_id)
        return { result: device.tags.includes(params.tag) }
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/tags/:tag',
      summary: 'Add devices to a tag, or remove them (jpush-api.md §7)',
      // The body must be an object before the write; its registration_ids are read inside it.
      reads: { params: tagParams, body: jsonBody(deviceObject, {}) },
      checks: [changes, tagLimit()],
      answer: done,
      handler: async (req, { params }) => {
        const appKey = req.tenant.app.appKey
        await store.write({ announces: ['device.changed'] }, () => {
          const { add, remove } = changes.read(req, id => store.pushDevices.get(appKey, id) !== undefined)
          for (const id of add) addTags(store, requireDevice(store, appKey, id), [params.tag])
          for (const id of remove) store.pushDevices.removeTags(appKey, id, [params.tag])
          devicesChanged(store, appKey, 'updated', [...add, ...remove], req.tenant.now())
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/tags/:tag',
      summary: 'Remove a tag from every device (jpush-api.md §7)',
      reads: { params: tagParams, query: query({ platform: platforms }) },
      answer: done,
      handler: async (req, { params, query }) => {
        const appKey = req.tenant.app.appKey
        // 200 also for a tag nobody carries (rb tests).
        await store.write({ announces: ['device.changed'] }, () => {
          const untagged = store.pushDevices
            .byTag(appKey, params.tag)
            .filter(d => query.platform.includes(d.platform))
          for (const d of untagged) store.pushDevices.removeTags(appKey, d.registrationId, [params.tag])
          const rids = untagged.map(d => d.registrationId)
          devicesChanged(store, appKey, 'updated', rids, req.tenant.now())
        })
        return {}
      },
    }),
  ]
}

import { z } from 'zod'
import { devicesChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { firstValue } from '../../http/body/query.js'
import { field, jsonBody, params, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { dayKey } from '../../time.js'
import { done } from './devices.js'
import { alias, deviceObject, platforms, ridChanges } from './fields.js'

// The device host's aliases (jpush-api.md §7). An alias nobody holds is no error: an empty list,
// and 200 for its removal (rb alias tests).

const aliasParams = params({ alias })
const platformQuery = query({ platform: platforms })

const newFormat = field({
  read: value => firstValue(value) === 'true',
  schema: z.literal('true').describe("Answer `data` with each device's platform.").optional(),
  errors: [],
})

export function aliasRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  const removals = ridChanges(['remove'])
  return [
    vendorRoute({
      method: 'GET',
      url: '/aliases/:alias',
      summary: 'The devices bound to an alias (jpush-api.md §7)',
      // The platforms first, as the service checks them.
      reads: { query: query({ platform: platforms, new_format: newFormat }), params: aliasParams },
      answer: z.union([
        z.object({ registration_ids: z.array(z.string()) }),
        z.object({
          data: z.array(
            z.object({
              registration_id: z.string(),
              platform: z.string(),
              // null: never online.
              last_online_date: z.string().nullable(),
            }),
          ),
        }),
      ]),
      handler: async (req, { query, params }) => {
        const devices = store.pushDevices
          .byAlias(req.tenant.app.appKey, params.alias)
          .filter(d => query.platform.includes(d.platform))
        if (!query.new_format) return { registration_ids: devices.map(d => d.registrationId) }
        return {
          data: devices.map(d => ({
            registration_id: d.registrationId,
            platform: d.platform,
            last_online_date: d.lastOnlineAt === null ? null : dayKey(d.lastOnlineAt, config.timeZone),
          })),
        }
      },
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/aliases/:alias',
      summary: 'Unbind an alias from every device (jpush-api.md §7)',
      // Read inside the write that unbinds it: the platforms, then the alias.
      checks: [platformQuery, aliasParams],
      answer: done,
      handler: async req => {
        const appKey = req.tenant.app.appKey
        await store.write({ announces: ['device.changed'] }, () => {
          const { platform } = platformQuery.read(req)
          const { alias: name } = aliasParams.read(req)
          const unbound = store.pushDevices.byAlias(appKey, name).filter(d => platform.includes(d.platform))
          for (const d of unbound) store.pushDevices.setAlias(appKey, d.registrationId, null)
          const rids = unbound.map(d => d.registrationId)
          devicesChanged(store, appKey, 'updated', rids, req.tenant.now())
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/aliases/:alias',
      summary: 'Unbind some devices from an alias (jpush-api.md §7)',
      reads: { params: aliasParams, body: jsonBody(deviceObject, {}) },
      checks: [removals],
      answer: done,
      handler: async (req, { params }) => {
        const appKey = req.tenant.app.appKey
        await store.write({ announces: ['device.changed'] }, () => {
          const { remove } = removals.read(req, id => store.pushDevices.get(appKey, id) !== undefined)
          const unbound = remove.filter(id => store.pushDevices.get(appKey, id)?.alias === params.alias)
          for (const id of unbound) store.pushDevices.setAlias(appKey, id, null)
          devicesChanged(store, appKey, 'updated', unbound, req.tenant.now())
        })
        return {}
      },
    }),
  ]
}

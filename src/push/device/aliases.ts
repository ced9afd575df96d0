import type { AppDeps } from '../../deps.js'
import { firstValue, type QueryValue } from '../../http/body/query.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { dayKey } from '../../time.js'
import { deleteAliasDocs, readAliasDocs, unbindAliasDocs } from './docs.js'
import { readAlias, readDeviceBody, readPlatforms, readRidChanges } from './fields.js'

type AliasParams = { alias: string }

export function aliasRoutes(deps: AppDeps): RouteSpec[] {
  const { store, config } = deps
  const devicesOf = (appKey: string, alias: string, platform: string | undefined) => {
    const platforms = readPlatforms(platform)
    return store.pushDevices.byAlias(appKey, readAlias(alias)).filter(d => platforms.includes(d.platform))
  }
  return [
    route<{ Params: AliasParams; Querystring: { platform?: QueryValue; new_format?: QueryValue } }>({
      method: 'GET',
      url: '/aliases/:alias',
      docs: readAliasDocs,
      handler: async req => {
        const { alias } = req.params
        const devices = devicesOf(req.tenant.app.appKey, alias, firstValue(req.query.platform))
        // An unknown alias is 200 with an empty list (rb alias tests).
        if (firstValue(req.query.new_format) !== 'true')
          return { registration_ids: devices.map(d => d.registrationId) }
        return {
          data: devices.map(d => ({
            registration_id: d.registrationId,
            platform: d.platform,
            last_online_date: d.lastOnlineAt === null ? null : dayKey(d.lastOnlineAt, config.timeZone),
          })),
        }
      },
    }),
    route<{ Params: AliasParams; Querystring: { platform?: QueryValue } }>({
      method: 'DELETE',
      url: '/aliases/:alias',
      docs: deleteAliasDocs,
      handler: async req => {
        const appKey = req.tenant.app.appKey
        const { alias } = req.params
        const platform = firstValue(req.query.platform)
        // 200 also for an alias nobody holds (rb alias tests).
        await store.write(() => {
          for (const d of devicesOf(appKey, alias, platform))
            store.pushDevices.setAlias(appKey, d.registrationId, null)
        })
        return {}
      },
    }),
    route<{ Params: AliasParams }>({
      method: 'POST',
      url: '/aliases/:alias',
      docs: unbindAliasDocs,
      handler: async req => {
        const alias = readAlias(req.params.alias)
        const body = readDeviceBody(req.body)
        const appKey = req.tenant.app.appKey
        await store.write(() => {
          const { remove } = readRidChanges(store, appKey, body, ['remove'])
          for (const rid of remove) {
            if (store.pushDevices.get(appKey, rid)?.alias === alias)
              store.pushDevices.setAlias(appKey, rid, null)
          }
        })
        return {}
      },
    }),
  ]
}

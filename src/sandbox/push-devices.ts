import { randomBytes } from 'node:crypto'
import { ApiError } from '../errors.js'
import { queryParam } from '../http/query.js'
import type { RouteSpec } from '../http/routes.js'
import type { PushDeps } from '../push/context.js'
import { setDeviceOnline } from '../push/delivery.js'
import { addTags, bindAlias, readTagChanges } from '../push/device-fields.js'
import { deviceErrors } from '../push/errors.js'
import { NOTIFICATION_PLATFORMS, parseNotification } from '../push/notification.js'
import { isObject, isValidTagOrAlias, isWellFormedRid, scalarText } from '../push/values.js'
import type { Device, PushPlatform } from '../store/push-devices.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const absent = (v: unknown) => v === undefined || v === null || v === ''

const deviceView = (d: Device) => ({
  registration_id: d.registrationId,
  platform: d.platform,
  alias: d.alias,
  tags: d.tags,
  mobile: d.mobile,
  online: d.online,
  last_online_time: iso(d.lastOnlineAt),
})

const PLATFORM_DIGIT: Record<PushPlatform, string> = {
  android: '1a',
  ios: '19',
  hmos: '1h',
  quickapp: '1q',
  winphone: '1w',
}
const newRid = (p: PushPlatform) => PLATFORM_DIGIT[p] + randomBytes(9).toString('hex').slice(0, 17)

/** Devices as a phone app registering with JPush would create them, and their online state. */
export function pushDeviceRoutes(deps: PushDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/push/devices',
      handler: async req => ({ devices: store.pushDevices.list(req.tenant.app.appKey).map(deviceView) }),
    },
    {
      method: 'POST',
      url: '/push/devices',
      handler: async req => {
        const b = isObject(req.body) ? req.body : {}
        const platform = b.platform as PushPlatform
        if (!NOTIFICATION_PLATFORMS.includes(platform)) throw deviceErrors.invalid('platform is invalid')
        // Strings, or numbers taken as their text; anything else is 7002 (never String() of it).
        const rid = b.registration_id === undefined ? newRid(platform) : scalarText(b.registration_id)
        if (rid === undefined || !isWellFormedRid(rid))
          throw deviceErrors.invalid('registration_id is invalid')
        const alias = absent(b.alias) ? null : (scalarText(b.alias) ?? '')
        if (alias !== null && !isValidTagOrAlias(alias)) throw deviceErrors.invalid('alias is invalid')
        const tags = b.tags === undefined ? [] : readTagChanges({ add: b.tags }).add
        const mobile = absent(b.mobile) ? null : scalarText(b.mobile)
        if (mobile === undefined) throw deviceErrors.invalid('mobile is invalid')
        const online = b.online !== false
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const device = await store.write(() => {
          if (store.pushDevices.get(appKey, rid))
            throw new ApiError(409, 7002, 'registration_id already exists')
          store.pushDevices.insert(
            {
              appKey,
              registrationId: rid,
              platform,
              alias: null,
              mobile,
              online,
              lastOnlineAt: now,
              createdAt: now,
            },
            [],
          )
          if (alias !== null) bindAlias(store, appKey, rid, alias)
          addTags(store, store.pushDevices.get(appKey, rid)!, tags)
          return store.pushDevices.get(appKey, rid)!
        })
        return deviceView(device)
      },
    },
    ...(['PATCH', 'POST'] as const).map(
      (method): RouteSpec => ({
        method,
        url: '/push/devices/:registration_id',
        handler: async req => {
          const { registration_id: rid } = req.params as { registration_id: string }
          const b = isObject(req.body) ? req.body : {}
          if (b.online !== undefined && typeof b.online !== 'boolean')
            throw deviceErrors.invalid('online must be a boolean')
          const { app } = req.tenant
          const now = req.tenant.now()
          const result = await store.write(() => {
            if (!store.pushDevices.get(app.appKey, rid))
              throw new ApiError(404, 7002, 'no such registration_id')
            const delivered =
              typeof b.online === 'boolean' ? setDeviceOnline(deps, app, rid, b.online, now) : 0
            return { device: store.pushDevices.get(app.appKey, rid)!, delivered }
          })
          return { ...deviceView(result.device), delivered: result.delivered }
        },
      }),
    ),
    {
      method: 'GET',
      url: '/push/messages',
      handler: async req => {
        const alias = queryParam(req.query, 'alias')
        const rid = queryParam(req.query, 'registration_id') || undefined
        const msgId = queryParam(req.query, 'msg_id') || undefined
        const { app } = req.tenant
        const aliasRids = alias
          ? new Set(store.pushDevices.byAlias(app.appKey, alias).map(d => d.registrationId))
          : null
        const received = store.pushDeliveries
          .search(app.appKey, { rid, msgId })
          .filter(d => d.status === 'delivered' && (!aliasRids || aliasRids.has(d.registrationId)))
        return {
          messages: received.map(d => {
            const payload = store.pushes.get(app.appKey, d.msgId)?.payload ?? {}
            const notification = isObject(payload.notification) ? parseNotification(payload.notification) : {}
            return {
              msg_id: d.msgId,
              registration_id: d.registrationId,
              platform: d.platform,
              notification: notification[d.platform] ?? null,
              message: payload.message ?? null,
              received_at: iso(d.deliveredAt),
              sms_msg_id: d.smsMsgId,
            }
          }),
        }
      },
    },
  ]
}

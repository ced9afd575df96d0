import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { devicesChanged } from '../../changes/announce.js'
import { deviceItem } from '../../changes/items.js'
import { sandboxErrors } from '../../control/errors.js'
import { asField } from '../../control/schemas.js'
import type { PipelineDeps } from '../../deps.js'
import {
  type ApnsEnvironment,
  channelFits,
  type PushPlatform,
  twinDefaults,
  type VendorChannel,
} from '../../device.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { setDeviceOnline } from '../send/index.js'
import { addTags, bindAlias } from './fields.js'
import { pushDeviceSchemas } from './sandbox-schemas.js'

const PLATFORM_DIGIT: Record<PushPlatform, string> = {
  android: '1a',
  ios: '19',
  hmos: '1h',
  quickapp: '1q',
  winphone: '1w',
}
/** The twin's fields as registered, else the platform's defaults; refused where they do not apply. */
function twinOf(
  platform: PushPlatform,
  channel: VendorChannel | null | undefined,
  apnsEnvironment: ApnsEnvironment | undefined,
) {
  const twin = twinDefaults(platform)
  if (channel !== undefined) {
    if (!channelFits(platform, channel))
      throw sandboxErrors.invalidField(`"channel": ${channel} is not a channel of ${platform}`)
    twin.channel = channel
  }
  if (apnsEnvironment !== undefined) {
    if (platform !== 'ios') throw sandboxErrors.invalidField('"apns_environment": only an ios device has one')
    twin.apnsEnvironment = apnsEnvironment
  }
  return twin
}
const newRid = (p: PushPlatform) => PLATFORM_DIGIT[p] + randomBytes(9).toString('hex').slice(0, 17)

/** Devices as a phone app registering with JPush would create them, and their online state. */
export function pushDeviceRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/devices',
      docs: {
        summary: "The app's push devices: platform, alias, tags, mobile, online",
        description:
          'Every device of the registry, the fixtures (four) and those registered since, in their order.',
      },
      schema: { response: { 200: z.object({ devices: z.array(pushDeviceSchemas.device) }) } },
      handler: async req => ({ devices: store.pushDevices.list(req.tenant.app.appKey).map(deviceItem) }),
    }),
    schemaRoute({
      method: 'POST',
      url: '/push/devices',
      docs: {
        summary: 'Register a device, as a phone app registering with JPush would',
        description: `\`platform\` (android, ios, hmos, quickapp, winphone); a \`registration_id\` is made for it unless given;
\`alias\`, \`tags\`, \`mobile\` (for a push's SMS fallback) and \`online\` (true) as the device API takes them,
within its limits (10 devices per alias, 1000 tags per device). \`channel\`: the maker's channel the phone
registered with (huawei, honor, xiaomi, oppo, vivo, meizu, fcm on Android; hmos on HarmonyOS; none: JPush only, the
default; HarmonyOS defaults to hmos); \`apns_environment\` (iOS: development or production, the default).`,
        errors: [
          sandboxErrors.invalidField('"alias": The alias is already bound to 10 devices'),
          sandboxErrors.registrationIdTaken(),
        ],
      },
      schema: { body: pushDeviceSchemas.newDevice, response: { 200: pushDeviceSchemas.device } },
      handler: async req => {
        const { platform, alias, tags, mobile, online, channel, apns_environment } = req.body
        const rid = req.body.registration_id ?? newRid(platform)
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const device = await store.write({ announces: ['device.changed'] }, () => {
          if (store.pushDevices.get(appKey, rid)) throw sandboxErrors.registrationIdTaken()
          // A tenant's share of the disk, and of every push's fan-out (issue 19).
          const max = deps.config.maxDevicesPerApp
          if (store.pushDevices.count(appKey) >= max) throw sandboxErrors.tooManyDevices(max)
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
              // Unsaid: the platform's default (twinDefaults); a channel only where it exists.
              ...twinOf(platform, channel, apns_environment),
            },
            [],
          )
          // The device API's limits (10 devices per alias, 1000 tags per device), in our words.
          if (alias !== null) asField('alias', () => bindAlias(store, appKey, rid, alias))
          asField('tags', () => addTags(store, store.pushDevices.get(appKey, rid)!, tags))
          devicesChanged(store, appKey, 'registered', [rid], now)
          return store.pushDevices.get(appKey, rid)!
        })
        return deviceItem(device)
      },
    }),
    ...(['PATCH', 'POST'] as const).map(method =>
      schemaRoute({
        method,
        url: '/push/devices/:registration_id',
        docs: {
          summary: 'Bring a device online or take it offline',
          description: `\`{"online":true}\` delivers at once what was pending for it (pushes within their time_to_live):
answers the device and how many it got (\`delivered\`); offline, later pushes wait for it.`,
          errors: [sandboxErrors.unknownRegistrationId()],
        },
        schema: {
          params: pushDeviceSchemas.rid,
          body: pushDeviceSchemas.change,
          response: { 200: pushDeviceSchemas.device.extend({ delivered: z.number() }) },
        },
        handler: async req => {
          const { registration_id: rid } = req.params
          const { online } = req.body
          const { app } = req.tenant
          const now = req.tenant.now()
          const result = await store.write({ announces: ['device.changed'] }, () => {
            if (!store.pushDevices.get(app.appKey, rid)) throw sandboxErrors.unknownRegistrationId()
            const delivered = online === undefined ? 0 : setDeviceOnline(deps, app, rid, online, now)
            return { device: store.pushDevices.get(app.appKey, rid)!, delivered }
          })
          return { ...deviceItem(result.device), delivered: result.delivered }
        },
      }),
    ),
  ]
}

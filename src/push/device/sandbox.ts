import { z } from 'zod'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import { TEST_DEVICE_LIMITS } from './test-devices.js'
import type { TestDevice } from './test-devices-table.js'

// The app's test devices (POST /v3/test/model/add…, docs/jpush-wire.md "Test devices"), which a
// push with options.test_model reaches alone: listed, and set, as a test steers them.

export const testDeviceSchema = z.object({
  registration_id: z.string(),
  device_name: z.string(),
  platform: z.string(),
  created_at: z.string(),
})

const view = (d: TestDevice): z.input<typeof testDeviceSchema> => ({
  registration_id: d.registrationId,
  device_name: d.deviceName,
  platform: d.platform,
  created_at: iso(d.createdAt),
})

const ridParams = z.object({ registration_id: z.string() })

export function pushTestDeviceRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/test-devices',
      docs: {
        summary: "The app's test devices: a push with options.test_model reaches only these",
        description:
          'The devices added with `POST /v3/test/model/add` or here, each with its name: a push with `options.test_model: true` reaches only those of its audience.',
      },
      schema: { response: { 200: z.object({ test_devices: z.array(testDeviceSchema) }) } },
      handler: async req => ({ test_devices: store.pushTestDevices.list(req.tenant.app.appKey).map(view) }),
    }),
    schemaRoute({
      method: 'PUT',
      url: '/push/test-devices/:registration_id',
      docs: {
        summary: 'Make a device of the app a test device, or rename it',
        description: `The device must be registered in the app; an app has at most ${TEST_DEVICE_LIMITS.perApp} test devices.`,
        errors: [sandboxErrors.unknownRegistrationId()],
      },
      schema: {
        params: ridParams,
        body: z.object({ device_name: z.string().min(1).max(TEST_DEVICE_LIMITS.deviceNameChars) }).strict(),
        response: { 200: testDeviceSchema },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const rid = req.params.registration_id
        const now = req.tenant.now()
        const device = await store.write(() => {
          if (!store.pushDevices.get(appKey, rid)) throw sandboxErrors.unknownRegistrationId()
          if (store.pushTestDevices.rename(appKey, rid, req.body.device_name))
            return store.pushTestDevices.get(appKey, rid)!
          if (store.pushTestDevices.count(appKey) >= TEST_DEVICE_LIMITS.perApp)
            throw invalidField(
              'registration_id',
              `an app has at most ${TEST_DEVICE_LIMITS.perApp} test devices`,
            )
          store.pushTestDevices.add({
            appKey,
            registrationId: rid,
            deviceName: req.body.device_name,
            createdAt: now,
          })
          return store.pushTestDevices.get(appKey, rid)!
        })
        return view(device)
      },
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/push/test-devices/:registration_id',
      docs: {
        summary: 'Make a test device an ordinary device again',
        description: 'The device stays registered; 404 90043 when it is not a test device of the app.',
        errors: [sandboxErrors.unknownRegistrationId('no test device with this registration_id')],
      },
      schema: {
        params: ridParams,
        response: { 200: z.object({ registration_id: z.string(), deleted: z.literal(true) }) },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const rid = req.params.registration_id
        const gone = await store.write(() => store.pushTestDevices.remove(appKey, rid))
        if (!gone) throw sandboxErrors.unknownRegistrationId('no test device with this registration_id')
        return { registration_id: rid, deleted: true as const }
      },
    }),
  ]
}

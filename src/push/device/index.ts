import type { Feature } from '../../http/feature.js'
import { aliasRoutes } from './aliases.js'
import { deviceRoutes } from './devices.js'
import { createPushDeviceStore } from './devices-table.js'
import { pushTestDeviceRoutes } from './sandbox.js'
import { pushDeviceRoutes } from './sandbox-devices.js'
import { tagRoutes } from './tags.js'
import { testDeviceRoutes } from './test-devices.js'
import { createPushTestDeviceStore } from './test-devices-table.js'

// The device host (jpush-api.md §1.1, §7): devices, tags, aliases (devices.ts, tags.ts,
// aliases.ts, fields.ts) and test devices (test-devices.ts; the control plane's, sandbox.ts; their
// table, test-devices-table.ts). The control plane registers devices as a phone would and brings
// them online or offline (sandbox-devices.ts, sandbox-schemas.ts). Its tables: the registry, each
// app's devices and their tags (devices-table.ts), and the test devices. What a device is (its
// platform, channel, APNs environment, its shape) is src/device.ts, below the features: push/send's
// fan-out reads the registry's rows too, and the seed, the advisor and the change items name them.

export { pushDeviceSchemas } from './sandbox-schemas.js'
/** The seed file's devices by the device API's rules (app.ts hands it to readSeedFile). */
export { seedDeviceProblems } from './seed.js'
export { TEST_DEVICE_LIMITS } from './test-devices.js'

export const pushDevice = {
  name: 'push/device',
  vendor: { device: [deviceRoutes, tagRoutes, aliasRoutes, testDeviceRoutes] },
  sandbox: [pushDeviceRoutes, pushTestDeviceRoutes],
  tables: engine => ({
    pushDevices: createPushDeviceStore(engine),
    pushTestDevices: createPushTestDeviceStore(engine),
  }),
} satisfies Feature

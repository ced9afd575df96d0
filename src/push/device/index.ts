import type { Feature } from '../../http/feature.js'
import { aliasRoutes } from './aliases.js'
import { deviceRoutes } from './devices.js'
import { pushTestDeviceRoutes } from './sandbox.js'
import { pushDeviceRoutes } from './sandbox-devices.js'
import { tagRoutes } from './tags.js'
import { testDeviceRoutes } from './test-devices.js'
import { createPushTestDeviceStore } from './test-devices-table.js'

// The device host (jpush-api.md §1.1, §7): devices, tags, aliases (devices.ts, tags.ts,
// aliases.ts, fields.ts) and test devices (test-devices.ts; the control plane's, sandbox.ts; their
// table, test-devices-table.ts). The control plane registers devices as a phone would and brings
// them online or offline (sandbox-devices.ts, sandbox-schemas.ts). The devices' own rows are still
// in src/store/push.

export { pushDeviceSchemas } from './sandbox-schemas.js'
/** The seed file's devices by the device API's rules (app.ts hands it to readSeedFile). */
export { seedDeviceProblems } from './seed.js'
export { TEST_DEVICE_LIMITS } from './test-devices.js'

export const pushDevice = {
  name: 'push/device',
  vendor: { device: [deviceRoutes, tagRoutes, aliasRoutes, testDeviceRoutes] },
  sandbox: [pushDeviceRoutes, pushTestDeviceRoutes],
  tables: engine => ({ pushTestDevices: createPushTestDeviceStore(engine) }),
} satisfies Feature

import type { Feature } from '../http/feature.js'
import { adminRoutes } from './apps.js'
import { certificateRoutes } from './sandbox.js'
import { createAdminStore } from './table.js'

// The JPush Admin API on its own host (admin.jpush.cn, devKey:devSecret): apps made, listed and
// deleted (apps.ts), their APNs certificates (certificates.ts), and what the control plane shows
// of those certificates (sandbox.ts: GET /_sandbox/app/certificates). Its codes: errors.ts,
// dialect.ts; its routing by Host: host.ts. Its table: the apps' profiles and certificates (table.ts).

export { CERTIFICATE_LIMITS } from './certificates.js'
export { adminDialect } from './dialect.js'
export { adminErrors } from './errors.js'
export { ADMIN_PREFIX, routeAdminHost } from './host.js'

export const admin = {
  name: 'admin',
  vendor: { admin: [adminRoutes] },
  sandbox: [certificateRoutes],
  tables: engine => ({ admin: createAdminStore(engine) }),
} satisfies Feature

import type { Feature } from '../../http/feature.js'
import { fileRoutes } from './files.js'
import { createPushFileStore } from './table.js'

// File pushes (jpush-api.md §5.14): a file of registration_ids or aliases uploaded (form.ts,
// files.ts: /v3/files), then pushed to; its table (table.ts).

export { FILE_LIMITS } from './form.js'

export const pushFiles = {
  name: 'push/files',
  vendor: { push: [fileRoutes] },
  tables: engine => ({ pushFiles: createPushFileStore(engine) }),
} satisfies Feature

import type { Feature } from '../../http/feature.js'
import { imageRoutes } from './images.js'
import { pushImageRoutes } from './sandbox.js'
import { createPushImageStore } from './table.js'

// The image API (POST /v3/images/…, docs/jpush-wire.md "Images"): the vendors' image rules
// (rules.ts, media.ts), its routes (images.ts), what the control plane shows of each image
// (sandbox.ts: /_sandbox/push/images), and its table (table.ts).

export { checkMedia, mediaErrors } from './media.js'
export { IMAGE_LIMITS } from './rules.js'

export const pushImages = {
  name: 'push/images',
  vendor: { push: [imageRoutes] },
  sandbox: [pushImageRoutes],
  tables: engine => ({ pushImages: createPushImageStore(engine) }),
} satisfies Feature

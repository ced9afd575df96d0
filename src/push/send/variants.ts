import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { filePushRoutes } from '../files/file-push.js'
import { fileRoutes } from '../files/files.js'
import { batchRoutes } from './batch.js'
import { groupPushRoutes } from './group-push.js'
import { quotaRoutes } from './quota.js'
import { withdrawRoutes } from './withdraw.js'

/**
 * The push host's other endpoints (jpush-api.md §5.14): batch single push, group push, withdraw,
 * vendor quota, files and file push. All in the push group: its codes and its rate window.
 */
export function pushVariantRoutes(deps: AppDeps): RouteSpec[] {
  return [
    ...batchRoutes(deps),
    ...groupPushRoutes(deps),
    ...withdrawRoutes(deps),
    ...quotaRoutes(deps),
    ...fileRoutes(deps),
    ...filePushRoutes(deps),
  ]
}

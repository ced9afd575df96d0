import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import { dispatchPush } from '../delivery/dispatch.js'
import { pushErrors } from '../errors.js'
import type { Audience } from '../send/audience.js'
import { parsePush } from '../send/payload.js'
import { isObject } from '../values.js'
import { filePushDocs } from './docs.js'
import { noSuchFile } from './form.js'

// POST /v3/push/file (jpush-api.md §5.14): a /v3/push whose audience is an uploaded file,
// `{"file": {"file_id": "…"}}`: its aliases, or those of its registration_ids the app has (a file
// may name devices since gone: they are skipped, where a /v3/push audience would be 1003). Same
// checks, delivery, limits, statistics and answer as /v3/push.

const FILE_AUDIENCE = 'audience must be {"file":{"file_id":"…"}} on /v3/push/file'

/** Reads the file audience of one app at its `now`: the file's ids as an ordinary audience. */
function fileAudience(store: Store, app: App, now: number) {
  return (value: unknown): Audience => {
    if (!isObject(value) || !isObject(value.file) || Object.keys(value).length !== 1)
      throw pushErrors.invalid(FILE_AUDIENCE)
    const fileId = value.file.file_id
    if (fileId === undefined || fileId === null || fileId === '')
      throw pushErrors.missing('audience.file.file_id')
    if (typeof fileId !== 'string') throw pushErrors.invalid('audience.file.file_id is invalid')
    const file = store.pushFiles.get(app.appKey, fileId, now)
    if (!file) throw noSuchFile(fileId)
    if (file.type === 'alias') return { alias: file.entries }
    return { registration_id: file.entries.filter(rid => store.pushDevices.get(app.appKey, rid)) }
  }
}

export function filePushRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/push/file',
      docs: filePushDocs,
      config: { exactIntegers: ['options.override_msg_id'] },
      handler: async req => {
        const { tenant } = req
        // Read inside the write: the file is the one the push is made of, not one deleted meanwhile.
        const outcome = await store.write(() => {
          const push = parsePush(req.body, tenant.app.appKey, fileAudience(store, tenant.app, tenant.now()))
          return dispatchPush(deps, tenant, push, false)
        })
        if (outcome.noTarget) throw pushErrors.noTarget(outcome.msgId)
        return { sendno: outcome.sendno, msg_id: outcome.msgId }
      },
    },
  ]
}

import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { audienceRules } from '../../advisor/audience.js'
import type { PipelineDeps } from '../../deps.js'
import { params, part } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { tenantOf } from '../../tenancy.js'
import { formatLocal } from '../../time.js'
import { pushErrors as e } from '../errors.js'
import {
  accepted,
  type FileLookup,
  fileAudience,
  fileId,
  isSm2,
  NOBODY,
  noSuchFile,
  parsePush,
  parseSm2Push,
  payload,
  readFileAudience,
  SLICED_ABOVE,
  sendPush,
  sent,
  sm2Errors,
  strictness,
} from '../send/index.js'
import { FILE_LIMITS, fileUpload, tooManyFiles } from './form.js'
import type { PushFileInfo, PushFileType } from './table.js'

// File push (jpush-api.md §5.14; fields as cav file/*.go and jsdk FileGetResult read them): upload
// a list of aliases or registration_ids, list, read and delete them, per app, and POST
// /v3/push/file, whose audience is one of them. A file is `<appkey>-<uuid>`; another app's id is
// simply unknown here.

const HOUR_MS = 3600_000

const fileAnswer = z.object({
  file_id: fileId,
  type: z.enum(['alias', 'registration_id']),
  file_name: z.string().describe('The uploaded file’s name, at most 255 characters.'),
  create_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`, Beijing time.'),
  expire_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`; only when the upload gave a `ttl`.').optional(),
})
const fileParams = params({ file_id: { read: value => value as string, schema: fileId, errors: [] } })

/**
 * A /v3/push whose audience is an uploaded file, `{"file": {"file_id": "…"}}`: its aliases, or
 * those of its registration_ids the app has (a file may name devices since gone: they are skipped,
 * where a /v3/push audience would be 1003). Read as the push is made: the file is the one the
 * push is made of, not one deleted meanwhile.
 */
const filePushPayload = payload({ audience: fileAudience })
const filePushBody = part({
  in: 'body',
  read: (req, lookup: FileLookup) =>
    isSm2(req)
      ? parseSm2Push(req.body, value => readFileAudience(value, lookup))
      : parsePush(
          req.body,
          req.tenant.app.appKey,
          value => readFileAudience(value, lookup),
          strictness(req.tenant.app.settings),
        ),
  ...filePushPayload,
  errors: [...filePushPayload.errors, ...sm2Errors],
})

/**
 * Whose files a request of the file API reads and writes. An app's own (appKey:masterSecret), or,
 * with the developer's devKey:devSecret (rest_api_v3_file, since 2020-08-11, for VIP file group
 * push), the developer's: held by the developer's first app in a group (push/send/groups-table.ts
 * `holderOf`), at that app's time, their ids `<devKey>-<uuid>`, for POST /v3/grouppush/file.
 */
interface FileOwner {
  holder: string
  prefix: string
  now: number
}

export function fileRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  const ownerOf = (req: FastifyRequest): FileOwner => {
    if (req.devKey !== undefined) {
      const holder = store.pushGroups.holderOf(req.devKey)
      const app = holder === undefined ? undefined : store.apps.get(holder)
      if (!app) throw e.noFileGroupPush()
      return { holder: app.appKey, prefix: req.devKey, now: tenantOf(deps.clock, app).now() }
    }
    const { appKey } = req.tenant.app
    return { holder: appKey, prefix: appKey, now: req.tenant.now() }
  }
  const owns = (o: FileOwner, fileId: string) => fileId.startsWith(`${o.prefix}-`)
  const filesOf = (o: FileOwner) => store.pushFiles.list(o.holder, o.now).filter(f => owns(o, f.fileId))
  // A developer's credentials on the file API: only with VIP file group push, which the sandbox
  // grants a developer with an app in a group (docs/fidelity.md), else 1105.
  const appOrDeveloper = {
    auth: 'app-or-dev' as const,
    developerAdmits(devKey: string) {
      if (store.pushGroups.holderOf(devKey) === undefined)
        throw e.noFileGroupPush().because(`no app of developer ${devKey} is in a group`)
    },
  }
  const BY_DEVELOPER =
    ' Also with the developer’s devKey:devSecret (file group push, POST /v3/grouppush/file) when one of its ' +
    'apps is in a group, else 403 1105: the developer’s own files.'
  // Times as the service writes them: `yyyy-MM-dd HH:mm:ss`, Beijing time. expire_time only when
  // the upload gave a ttl (cav: "当设置了文件有效期…则会携带该字段返回").
  const view = (f: PushFileInfo): z.input<typeof fileAnswer> => ({
    file_id: f.fileId,
    type: f.type,
    file_name: f.fileName,
    create_time: formatLocal(f.createdAt, config.timeZone),
    ...(f.ttl === null ? {} : { expire_time: formatLocal(f.expiresAt, config.timeZone) }),
  })
  const upload = (type: PushFileType) =>
    vendorRoute({
      method: 'POST',
      url: `/files/${type}`,
      summary: `Upload a file of ${type === 'alias' ? 'aliases' : 'registration_ids'} for file push (jpush-api.md §5.14)`,
      description:
        `One ${type} per line, UTF-8 (blank lines and repeats dropped), at most ${FILE_LIMITS.entries} ` +
        `values; an app keeps at most ${FILE_LIMITS.filesPerApp} files at once. Kept \`ttl\` hours ` +
        `(${FILE_LIMITS.maxTtlHours} without one).${BY_DEVELOPER}`,
      config: appOrDeveloper,
      reads: { body: fileUpload(type) },
      checks: [tooManyFiles()],
      answer: z.object({ file_id: fileId }),
      handler: async (req, { body: form }) => {
        const owner = ownerOf(req)
        const { holder: appKey, now } = owner
        const id = `${owner.prefix}-${randomUUID()}`
        await store.write(() => {
          store.pushFiles.purge(appKey, now)
          // The holder's rows, the developer's included: an app's document keeps at most that many.
          if (store.pushFiles.list(appKey, now).length >= FILE_LIMITS.filesPerApp) throw tooManyFiles()
          const hours = form.ttl ?? FILE_LIMITS.maxTtlHours
          store.pushFiles.insert({
            fileId: id,
            appKey,
            type,
            ...form,
            createdAt: now,
            expiresAt: now + hours * HOUR_MS,
          })
        })
        return { file_id: id }
      },
    })
  return [
    upload('alias'),
    upload('registration_id'),
    vendorRoute({
      method: 'GET',
      url: '/files',
      summary: "The app's files for file push (jpush-api.md §5.14)",
      description: `Files past their time are gone.${BY_DEVELOPER}`,
      config: appOrDeveloper,
      answer: z.object({ total_count: z.int(), files: z.array(fileAnswer) }),
      handler: async req => {
        const files = filesOf(ownerOf(req))
        return { total_count: files.length, files: files.map(view) }
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/files/:file_id',
      summary: 'A file for file push (jpush-api.md §5.14)',
      description: BY_DEVELOPER.trim(),
      config: appOrDeveloper,
      reads: { params: fileParams },
      checks: [noSuchFile('7d431e42dfa6a6d693ac2d04-00000000-0000-0000-0000-000000000000')],
      answer: fileAnswer,
      handler: async (req, { params }) => {
        const owner = ownerOf(req)
        const file = owns(owner, params.file_id)
          ? store.pushFiles.info(owner.holder, params.file_id, owner.now)
          : undefined
        if (!file) throw noSuchFile(params.file_id)
        return view(file)
      },
    }),
    // An unknown file_id is deleted already: success (cav file/v3_delete_file.go: "fileID 不存在当成功处理").
    vendorRoute({
      method: 'DELETE',
      url: '/files/:file_id',
      summary: 'Delete a file for file push (jpush-api.md §5.14)',
      description: `An unknown file_id counts as deleted already: \`{}\` too (as the service does).${BY_DEVELOPER}`,
      config: appOrDeveloper,
      reads: { params: fileParams },
      answer: z.object({}).describe('Done: `{}`.'),
      handler: async (req, { params }) => {
        const owner = ownerOf(req)
        if (owns(owner, params.file_id))
          await store.write(() => store.pushFiles.delete(owner.holder, params.file_id))
        return {}
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/push/file',
      summary: 'Push to the aliases or registration_ids of a file (jpush-api.md §5.14)',
      description:
        'A /v3/push whose audience is an uploaded file: the same checks, delivery, limits, ' +
        'statistics and answer. Registration_ids the app no longer has are skipped (a /v3/push audience would refuse them).',
      checks: [filePushBody, ...accepted, e.noTarget(NOBODY)],
      answer: sent,
      handler: async req => {
        const { tenant } = req
        const { app } = tenant
        const now = tenant.now()
        const push = filePushBody.read(req, id => {
          // The app's own files: a developer's, held by this app, are for group file push.
          const file = id.startsWith(`${app.appKey}-`) ? store.pushFiles.get(app.appKey, id, now) : undefined
          if (!file) return undefined
          if (file.type === 'alias') return { alias: file.entries }
          // A large file goes in slices through the registry (delivery/slices.ts), which skip the
          // ids the app does not have by themselves; a small one is looked up here, id by id.
          if (file.entries.length > SLICED_ABOVE) return { registration_id: file.entries }
          return { registration_id: file.entries.filter(rid => store.pushDevices.get(app.appKey, rid)) }
        })
        const outcome = await sendPush(deps, tenant, push, false)
        if (outcome.noTarget) throw outcome.noTarget
        // Whom it reached (a sample of its first targets when sliced): warnings only (advisor/audience.ts).
        if (outcome.seen) advise(req, deps.config, audienceRules, outcome.seen)
        return { sendno: outcome.sendno, msg_id: outcome.msgId }
      },
    }),
  ]
}

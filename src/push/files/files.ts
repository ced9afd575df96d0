import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../../deps.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { PushFileInfo, PushFileType } from '../../store/push/files.js'
import { formatLocal } from '../../time.js'
import { deleteFileDocs, fileDocs, filesDocs, uploadAliasesDocs, uploadRidsDocs } from './docs.js'
import { FILE_LIMITS, noSuchFile, readFileUpload, tooManyFiles } from './form.js'

// The files of file push (jpush-api.md §5.14; fields as cav file/*.go and jsdk FileGetResult read
// them): upload a list of aliases or registration_ids, list, read and delete them, per app. A file
// is `<appkey>-<uuid>`; another app's id is simply unknown.

const HOUR_MS = 3600_000

export function fileRoutes(deps: AppDeps): RouteSpec[] {
  const { store, config } = deps
  // Times as the service writes them: `yyyy-MM-dd HH:mm:ss`, Beijing time. expire_time only when
  // the upload gave a ttl (cav: "当设置了文件有效期…则会携带该字段返回").
  const view = (f: PushFileInfo) => ({
    file_id: f.fileId,
    type: f.type,
    file_name: f.fileName,
    create_time: formatLocal(f.createdAt, config.timeZone),
    ...(f.ttl === null ? {} : { expire_time: formatLocal(f.expiresAt, config.timeZone) }),
  })
  const upload = (type: PushFileType): RouteSpec => ({
    method: 'POST',
    url: `/files/${type}`,
    docs: type === 'alias' ? uploadAliasesDocs : uploadRidsDocs,
    bodyLimit: FILE_LIMITS.bodyBytes,
    config: { body: 'multipart' },
    handler: async req => {
      const form = await readFileUpload(req, type)
      const { appKey } = req.tenant.app
      const now = req.tenant.now()
      const fileId = `${appKey}-${randomUUID()}`
      await store.write(() => {
        store.pushFiles.purge(appKey, now)
        if (store.pushFiles.list(appKey, now).length >= FILE_LIMITS.filesPerApp) throw tooManyFiles()
        const hours = form.ttl ?? FILE_LIMITS.maxTtlHours
        store.pushFiles.insert({
          fileId,
          appKey,
          type,
          ...form,
          createdAt: now,
          expiresAt: now + hours * HOUR_MS,
        })
      })
      return { file_id: fileId }
    },
  })
  return [
    upload('alias'),
    upload('registration_id'),
    {
      method: 'GET',
      url: '/files',
      docs: filesDocs,
      handler: async req => {
        const files = store.pushFiles.list(req.tenant.app.appKey, req.tenant.now())
        return { total_count: files.length, files: files.map(view) }
      },
    },
    route<{ Params: { file_id: string } }>({
      method: 'GET',
      url: '/files/:file_id',
      docs: fileDocs,
      handler: async req => {
        const file = store.pushFiles.info(req.tenant.app.appKey, req.params.file_id, req.tenant.now())
        if (!file) throw noSuchFile(req.params.file_id)
        return view(file)
      },
    }),
    // An unknown file_id is deleted already: success (cav file/v3_delete_file.go: "fileID 不存在当成功处理").
    route<{ Params: { file_id: string } }>({
      method: 'DELETE',
      url: '/files/:file_id',
      docs: deleteFileDocs,
      handler: async req => {
        const { appKey } = req.tenant.app
        await store.write(() => store.pushFiles.delete(appKey, req.params.file_id))
        return {}
      },
    }),
  ]
}

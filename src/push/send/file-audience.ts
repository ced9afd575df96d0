import { z } from 'zod'
import { pushErrors } from '../errors.js'
import { isObject } from '../values.js'
import type { Audience } from './audience.js'

// The audience `{"file": {"file_id"}}` of POST /v3/push/file, /v3/grouppush/file and
// /v3/push/template with a file (jpush-api.md §5.14): read with the push, the file found by the
// caller (push/files keeps the files).

export const noSuchFile = (fileId: string) =>
  pushErrors.invalid(`file_id ${fileId.slice(0, 80)} does not exist`)

export const fileId = z.string().describe('`<appKey>-<uuid>`, as the upload answered.')

const FILE_AUDIENCE = 'audience must be {"file":{"file_id":"…"}} on /v3/push/file'

/** What a file push's audience names: the file's ids, or nothing when the app has no such file. */
export type FileLookup = (fileId: string) => Audience | undefined

/** Reads the file audience `{"file": {"file_id"}}` as the ids of the file `lookup` finds. */
export function readFileAudience(value: unknown, lookup: FileLookup): Audience {
  if (!isObject(value) || !isObject(value.file) || Object.keys(value).length !== 1)
    throw pushErrors.invalid(FILE_AUDIENCE)
  const id = value.file.file_id
  if (id === undefined || id === null || id === '') throw pushErrors.missing('audience.file.file_id')
  if (typeof id !== 'string') throw pushErrors.invalid('audience.file.file_id is invalid')
  const audience = lookup(id)
  if (!audience) throw noSuchFile(id)
  return audience
}

/** What readFileAudience takes and refuses, for the document of POST /v3/push/file. */
export const fileAudience = {
  schema: z.object({ file: z.object({ file_id: fileId }) }).describe('Exactly `{"file":{"file_id"}}`.'),
  errors: [
    pushErrors.invalid(FILE_AUDIENCE),
    pushErrors.missing('audience.file.file_id'),
    pushErrors.invalid('audience.file.file_id is invalid'),
    noSuchFile('nope'),
  ],
}

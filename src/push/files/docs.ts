import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { pushErrors as e } from '../errors.js'
import { pushBody, pushChecks, sent } from '../send/docs.js'
import { FILE_LIMITS, noSuchFile, tooManyFiles } from './form.js'

// File push (jpush-api.md §5.14): files of aliases or registration_ids, per app, and
// POST /v3/push/file whose audience is one of them. A file is `<appKey>-<uuid>`; another app's id
// is simply unknown here.

const fileId = z.string().describe('`<appKey>-<uuid>`, as the upload answered.')
const file = z.object({
  file_id: fileId,
  type: z.enum(['alias', 'registration_id']),
  file_name: z.string().describe('The uploaded file’s name, at most 255 characters.'),
  create_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`, Beijing time.'),
  expire_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`; only when the upload gave a `ttl`.').optional(),
})

const upload = (kind: 'alias' | 'registration_id'): RouteDocs => ({
  summary: `Upload a file of ${kind === 'alias' ? 'aliases' : 'registration_ids'} for file push (jpush-api.md §5.14)`,
  description:
    `One ${kind} per line, UTF-8 (blank lines and repeats dropped), at most ${FILE_LIMITS.entries} ` +
    `values; an app keeps at most ${FILE_LIMITS.filesPerApp} files at once. Kept \`ttl\` hours ` +
    `(${FILE_LIMITS.maxTtlHours} without one).`,
  bodyMedia: 'multipart/form-data',
  body: z.object({
    filename: z
      .string()
      .meta({ contentMediaType: 'text/plain' })
      .describe(`The file: a part with a filename, at most ${FILE_LIMITS.fileBytes / 1024 / 1024} MiB.`),
    ttl: z.string().describe(`Hours to keep it, 1 to ${FILE_LIMITS.maxTtlHours}.`).optional(),
  }),
  answers: { 200: z.object({ file_id: fileId }) },
  errors: [
    e.missing('filename'),
    e.invalid('the file must be sent as multipart/form-data'),
    e.invalid('the form cannot be read: Unexpected end of form'),
    e.tooBig(`file over ${FILE_LIMITS.fileBytes} bytes`),
    e.invalid('ttl is invalid'),
    e.invalid(`line 3 of the file is not a valid ${kind}`),
    e.invalid(`the file holds more than ${FILE_LIMITS.entries} values`),
    e.invalid(`the file holds no ${kind}`),
    tooManyFiles(),
  ],
})

export const uploadAliasesDocs = upload('alias')
export const uploadRidsDocs = upload('registration_id')

export const filesDocs: RouteDocs = {
  summary: "The app's files for file push (jpush-api.md §5.14)",
  description: 'Files past their time are gone.',
  answers: { 200: z.object({ total_count: z.int(), files: z.array(file) }) },
}

const fileParams = z.object({ file_id: fileId })

export const fileDocs: RouteDocs = {
  summary: 'A file for file push (jpush-api.md §5.14)',
  params: fileParams,
  answers: { 200: file },
  errors: [noSuchFile('7d431e42dfa6a6d693ac2d04-00000000-0000-0000-0000-000000000000')],
}

export const deleteFileDocs: RouteDocs = {
  summary: 'Delete a file for file push (jpush-api.md §5.14)',
  description: 'An unknown file_id counts as deleted already: `{}` too (as the service does).',
  params: fileParams,
  answers: { 200: z.object({}).describe('Done: `{}`.') },
}

export const filePushDocs: RouteDocs = {
  summary: 'Push to the aliases or registration_ids of a file (jpush-api.md §5.14)',
  description:
    'A /v3/push whose audience is an uploaded file: the same checks, delivery, limits, ' +
    'statistics and answer. Registration_ids the app no longer has are skipped (a /v3/push audience would refuse them).',
  body: pushBody.extend({
    audience: z.object({ file: z.object({ file_id: fileId }) }).describe('Exactly `{"file":{"file_id"}}`.'),
  }),
  answers: { 200: sent },
  errors: [
    ...pushChecks.required,
    e.invalid('audience must be {"file":{"file_id":"…"}} on /v3/push/file'),
    e.missing('audience.file.file_id'),
    e.invalid('audience.file.file_id is invalid'),
    noSuchFile('nope'),
    ...pushChecks.content,
    ...pushChecks.accepted,
    e.noTarget('18100000000000001'),
  ],
}

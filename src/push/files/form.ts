import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../../errors.js'
import { readForm } from '../../http/body/multipart.js'
import { part } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { isValidTagOrAlias, isWellFormedRid } from '../values.js'
import type { PushFileType } from './table.js'

// What file push reads (jpush-api.md §5.14): the upload form of a file of aliases or
// registration_ids. The audience `{"file": {"file_id"}}` of POST /v3/push/file is read with the
// push (push/send/file-audience.ts).

/** File push's limits: the vendor's (cav file/v3_upload_file.go), and the sandbox's own line cap. */
export const FILE_LIMITS = {
  /** A .txt file of at most 10 MiB. */
  fileBytes: 10 * 1024 * 1024,
  /** The whole form: the file and a `ttl` part. */
  bodyBytes: 10 * 1024 * 1024 + 64 * 1024,
  /** The sandbox's: a file push resolves every line inside one write, like a broadcast. */
  entries: 100_000,
  /** Files an app may keep at once. */
  filesPerApp: 20,
  /** Hours a file is kept: 1..720, 720 when not given. */
  maxTtlHours: 720,
  fileNameChars: 255,
} as const

export const tooManyFiles = () =>
  new ApiError(400, 1012, `an app keeps at most ${FILE_LIMITS.filesPerApp} files at once: delete one first`)

export interface FileUpload {
  fileName: string
  entries: string[]
  ttl: number | null
}

/**
 * The multipart form of POST /v3/files/{alias|registration_id}: the file in the part `filename`
 * (cav, java FileClient), UTF-8, one id per line (each trimmed; blank lines and repeats dropped),
 * and an optional `ttl` part in hours. What is wrong is 1002 (no file) or 1003, 1005 too big.
 */
async function readFileUpload(req: FastifyRequest, type: PushFileType): Promise<FileUpload> {
  const form = await readForm(
    req,
    { maxFileBytes: FILE_LIMITS.fileBytes, maxFiles: 4, maxFields: 8 },
    {
      empty: () => pushErrors.missing('filename'),
      notMultipart: () => pushErrors.invalid('the file must be sent as multipart/form-data'),
      unreadable: reason => pushErrors.invalid(`the form cannot be read: ${reason}`),
    },
  )
  const file = form.files.find(f => f.field === 'filename')
  if (!file) throw pushErrors.missing('filename')
  if (file.truncated) throw pushErrors.tooBig(`file over ${FILE_LIMITS.fileBytes} bytes`)
  const rawTtl = form.fields.get('ttl')?.find(v => v.trim() !== '')
  let ttl: number | null = null
  if (rawTtl !== undefined) {
    ttl = /^\s*\d{1,4}\s*$/.test(rawTtl) ? Number(rawTtl) : Number.NaN
    if (!(ttl >= 1 && ttl <= FILE_LIMITS.maxTtlHours)) throw pushErrors.invalid('ttl is invalid')
  }
  const base = file.filename.split(/[\\/]/).pop() ?? ''
  return {
    fileName: [...base].slice(0, FILE_LIMITS.fileNameChars).join(''),
    entries: readLines(file.bytes, type),
    ttl,
  }
}

function readLines(bytes: Buffer, type: PushFileType): string[] {
  let text = bytes.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const valid = type === 'alias' ? isValidTagOrAlias : isWellFormedRid
  const seen = new Set<string>()
  const lines = text.split(/\r?\n|\r/)
  for (const [i, line] of lines.entries()) {
    const value = line.trim()
    if (value === '') continue
    if (!valid(value)) throw pushErrors.invalid(`line ${i + 1} of the file is not a valid ${type}`)
    seen.add(value)
    if (seen.size > FILE_LIMITS.entries)
      throw pushErrors.invalid(`the file holds more than ${FILE_LIMITS.entries} values`)
  }
  if (seen.size === 0) throw pushErrors.invalid(`the file holds no ${type}`)
  return [...seen]
}

/** The upload form of POST /v3/files/{alias|registration_id}, declared with what it refuses. */
export const fileUpload = (kind: PushFileType) =>
  part({
    in: 'body',
    read: req => readFileUpload(req, kind),
    schema: z.object({
      filename: z
        .string()
        .meta({ contentMediaType: 'text/plain' })
        .describe(`The file: a part with a filename, at most ${FILE_LIMITS.fileBytes / 1024 / 1024} MiB.`),
      ttl: z.string().describe(`Hours to keep it, 1 to ${FILE_LIMITS.maxTtlHours}.`).optional(),
    }),
    errors: [
      pushErrors.missing('filename'),
      pushErrors.invalid('the file must be sent as multipart/form-data'),
      pushErrors.invalid('the form cannot be read: Unexpected end of form'),
      pushErrors.tooBig(`file over ${FILE_LIMITS.fileBytes} bytes`),
      pushErrors.invalid('ttl is invalid'),
      pushErrors.invalid(`line 3 of the file is not a valid ${kind}`),
      pushErrors.invalid(`the file holds more than ${FILE_LIMITS.entries} values`),
      pushErrors.invalid(`the file holds no ${kind}`),
    ],
    media: 'multipart/form-data',
    limit: FILE_LIMITS.bodyBytes,
  })

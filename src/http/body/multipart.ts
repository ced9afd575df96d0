import type Busboy from 'busboy'
import { lazy } from '../../lazy.js'

const busboy = lazy<typeof Busboy>('busboy')

// multipart/form-data for the JSMS signature endpoints (jsms-api.md §2.10), read leniently enough
// for every official client:
// - Java writes `multipart/form-data ; boundary=========7d4a6d158c9`: a space before `;` and a
//   boundary that starts with `=`, which strict media-type parsers split or drop. So the boundary
//   is extracted here and handed to busboy quoted, in a header busboy cannot misread.
// - .NET quotes the boundary in the header and leaves part names unquoted (`name=sign`); Java
//   writes `Content-Type:application/octet-stream` with no space; Python sends no part
//   Content-Type; PHP sends a full local path as filename. busboy copes with all of these once
//   the header is normalized (test/sms/signs-multipart.test.ts replays each client byte for byte).

export interface FormFile {
  field: string
  filename: string
  bytes: Buffer
  /** The file went over `maxFileBytes`: only the first bytes were kept. */
  truncated: boolean
}

export interface Form {
  /** Text parts by name, in arrival order (a name may repeat). */
  fields: Map<string, string[]>
  files: FormFile[]
}

export class MultipartError extends Error {}

const MULTIPART = /^\s*multipart\/form-data\s*(?:;|$)/i
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i

export function isMultipart(contentType: string | undefined): boolean {
  return MULTIPART.test(contentType ?? '')
}

/** The boundary of a multipart Content-Type, however the client spelled it. */
function boundaryOf(contentType: string): string | undefined {
  const m = BOUNDARY.exec(contentType)
  const value = m?.[1] ?? m?.[2]
  // RFC 2046 §5.1.1: 1 to 70 characters.
  return value && value.length <= 70 ? value : undefined
}

export interface FormLimits {
  maxFileBytes: number
  maxFiles: number
  maxFields: number
}

/** What a surface answers, in its own envelope, for a form it cannot read. */
export interface FormRefusals {
  /** No body at all. */
  empty: () => Error
  /** A body that is not multipart/form-data. */
  notMultipart: () => Error
  /** A multipart body that cannot be read to its end (no boundary, cut short, too many parts). */
  unreadable: (reason: string) => Error
}

/** The request's multipart form (a raw body held in memory), or the surface's refusal. */
export async function readForm(
  req: { headers: { 'content-type'?: string }; body: unknown },
  limits: FormLimits,
  refuse: FormRefusals,
): Promise<Form> {
  const contentType = req.headers['content-type']
  const body = req.body as Buffer | undefined
  if (!body || body.length === 0) throw refuse.empty()
  if (!isMultipart(contentType)) throw refuse.notMultipart()
  try {
    return await parseMultipart(contentType ?? '', body, limits)
  } catch (err) {
    if (err instanceof MultipartError) throw refuse.unreadable(err.message)
    throw err
  }
}

/** Parses a whole multipart body held in memory. Rejects with MultipartError when it is malformed. */
export function parseMultipart(contentType: string, body: Buffer, limits: FormLimits): Promise<Form> {
  const boundary = boundaryOf(contentType)
  if (!boundary) return Promise.reject(new MultipartError('no boundary'))
  return new Promise((resolve, reject) => {
    const form: Form = { fields: new Map(), files: [] }
    let failed = false
    const fail = (message: string) => {
      if (failed) return
      failed = true
      reject(new MultipartError(message))
    }
    let parser: Busboy.Busboy
    try {
      parser = busboy()({
        headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
        defParamCharset: 'utf8',
        // busboy flags a file that merely reaches `fileSize`; one byte more tells "over the limit".
        limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fields: limits.maxFields },
      })
    } catch (err) {
      return fail((err as Error).message)
    }
    const pending: Promise<void>[] = []
    parser.on('field', (name, value) => {
      const values = form.fields.get(name) ?? []
      values.push(value)
      form.fields.set(name, values)
    })
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = []
      const file: FormFile = {
        field,
        filename: info.filename ?? '',
        bytes: Buffer.alloc(0),
        truncated: false,
      }
      form.files.push(file)
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('limit', () => {
        file.truncated = true
      })
      // A form that ends inside a file part (no closing boundary: a Go client that never calls
      // Writer.Close) destroys the file stream with "Unexpected end of file". An 'error' nobody
      // listens to is thrown, and would take the whole process down for one request.
      stream.on('error', (err: Error) => fail(err.message))
      pending.push(
        new Promise(done =>
          stream.on('close', () => {
            file.bytes = Buffer.concat(chunks)
            done()
          }),
        ),
      )
    })
    parser.on('filesLimit', () => fail('too many files'))
    parser.on('fieldsLimit', () => fail('too many fields'))
    parser.on('partsLimit', () => fail('too many parts'))
    parser.on('error', (err: Error) => fail(err.message))
    parser.on('close', () => {
      Promise.all(pending).then(() => {
        if (!failed) resolve(form)
      }, reject)
    })
    parser.end(body)
  })
}

import { deflateSync } from 'node:zlib'
import type { RawForm } from './file-forms.js'

// Image files and the multipart forms the official clients send them in, byte for byte: the old
// Java client (jcommon NativeHttpClient.formUpload), the current Java SDK (feign-form's
// MultipartFormContentProcessor) and the Go SDK (mime/multipart through cav api.FormRequest).

const CRLF = '\r\n'

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const b of bytes) {
    crc ^= b
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A real PNG of `width`×`height` grey pixels. */
export function png(width = 2, height = 2): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.writeUInt8(8, 8) // bit depth
  ihdr.writeUInt8(0, 9) // greyscale
  const rows = Buffer.concat(
    Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)])),
  )
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A JPEG's markers up to its frame header (SOI, APP0, SOF0 of `width`×`height`), then EOI. */
export function jpeg(width = 120, height = 80): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0, 0, 1, 0, 1, 0, 0,
  ])
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ])
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])])
}

export interface FilePart {
  field: string
  name: string
  bytes: Buffer
  type?: string
}

/**
 * jcommon NativeHttpClient.formUpload: boundary `---------------------------<millis>`, each part
 * opened by CRLF, text parts first (no CRLF after their value), `Content-Type:` with no space and
 * the type guessed from the file name, then CRLF--boundary--CRLF.
 */
export function javaMultipart(text: Record<string, string>, files: FilePart[]): RawForm {
  const boundary = '---------------------------1767225600000'
  const parts: Buffer[] = []
  const textPart = Object.entries(text)
    .map(
      ([k, v]) => `${CRLF}--${boundary}${CRLF}Content-Disposition: form-data; name="${k}"${CRLF}${CRLF}${v}`,
    )
    .join('')
  parts.push(Buffer.from(textPart, 'utf8'))
  for (const f of files) {
    const type = f.name.endsWith('.png')
      ? 'image/png'
      : f.name.endsWith('.jpg')
        ? 'image/jpeg'
        : 'application/octet-stream'
    parts.push(
      Buffer.from(
        `${CRLF}--${boundary}${CRLF}Content-Disposition: form-data; name="${f.field}"; filename="${f.name}"${CRLF}` +
          `Content-Type:${f.type ?? type}${CRLF}${CRLF}`,
      ),
      f.bytes,
    )
  }
  parts.push(Buffer.from(`${CRLF}--${boundary}--${CRLF}`))
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) }
}

/**
 * feign-form 3.8 (jiguang-sdk-java's ApiEncoder for `multipart/form-data`): a hex boundary, a
 * `charset=UTF-8` parameter before it, text parts as text/plain; charset=UTF-8, files with the type
 * guessed from the name and Content-Transfer-Encoding: binary.
 */
export function feignMultipart(text: Record<string, string>, files: FilePart[]): RawForm {
  const boundary = '19b9b1f2c4e'
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(text))
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${k}"${CRLF}` +
          `Content-Type: text/plain; charset=UTF-8${CRLF}${CRLF}${v}${CRLF}`,
      ),
    )
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${f.field}"; filename="${f.name}"${CRLF}` +
          `Content-Type: ${f.type ?? 'image/png'}${CRLF}Content-Transfer-Encoding: binary${CRLF}${CRLF}`,
      ),
      f.bytes,
      Buffer.from(CRLF),
    )
  parts.push(Buffer.from(`--${boundary}--${CRLF}`))
  return {
    contentType: `multipart/form-data; charset=UTF-8; boundary=${boundary}`,
    body: Buffer.concat(parts),
  }
}

/** Go's mime/multipart Writer: a 60-hex boundary, fields first, files as application/octet-stream. */
export function goMultipart(text: Record<string, string>, files: FilePart[]): RawForm {
  const boundary = 'b5a3f0e6c9d24a7e8f1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f'
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(text))
    parts.push(
      Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="${k}"${CRLF}${CRLF}${v}${CRLF}`),
    )
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${f.field}"; filename="${f.name}"${CRLF}` +
          `Content-Type: application/octet-stream${CRLF}${CRLF}`,
      ),
      f.bytes,
      Buffer.from(CRLF),
    )
  parts.push(Buffer.from(`--${boundary}--${CRLF}`))
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) }
}

// The file upload forms of POST /v3/files/{alias|registration_id} as clients write them, byte for
// byte: the file in the part `filename`, an optional `ttl` part (hours).

export interface RawForm {
  contentType: string
  body: Buffer
}

const CRLF = '\r\n'

/** curl -F 'filename=@ids.txt' [-F ttl=…]: a `------------------------<hex>` boundary, text/plain. */
export function curlForm(lines: string, opts: { ttl?: string; name?: string; field?: string } = {}): RawForm {
  const boundary = '------------------------9f3c1e5b7a2d4c60'
  const parts = [
    `--${boundary}${CRLF}Content-Disposition: form-data; name="${opts.field ?? 'filename'}"; filename="${opts.name ?? 'ids.txt'}"${CRLF}` +
      `Content-Type: text/plain${CRLF}${CRLF}${lines}${CRLF}`,
  ]
  if (opts.ttl !== undefined)
    parts.push(
      `--${boundary}${CRLF}Content-Disposition: form-data; name="ttl"${CRLF}${CRLF}${opts.ttl}${CRLF}`,
    )
  parts.push(`--${boundary}--${CRLF}`)
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(parts.join(''), 'utf8'),
  }
}

/**
 * jpush-api-java-client FileClient.uploadFile(type, path, ttl) through jcommon NativeHttpClient
 * formUpload: boundary `---------------------------<millis>`, every part opened by CRLF (a leading
 * CRLF before the first), text parts first, `Content-Type:text/plain` with no space, the file's
 * base name, and CRLF--boundary--CRLF at the end.
 */
export function javaForm(lines: string, ttl = '720', name = 'ids.txt'): RawForm {
  const boundary = '---------------------------1767225600000'
  const text = `${CRLF}--${boundary}${CRLF}Content-Disposition: form-data; name="ttl"${CRLF}${CRLF}${ttl}`
  const file =
    `${CRLF}--${boundary}${CRLF}Content-Disposition: form-data; name="filename"; filename="${name}"${CRLF}` +
    `Content-Type:text/plain${CRLF}${CRLF}`
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(`${text}${file}${lines}${CRLF}--${boundary}--${CRLF}`, 'utf8'),
  }
}

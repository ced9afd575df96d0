/**
 * The user of `Authorization: Basic …`, decoded without checking anything (no password compared):
 * for what only needs to know who a request claims to be (the journal's app, the sign-in limit's
 * exemption of appKeys). Undefined without such a header, or one that does not decode.
 */
export function basicUser(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^\s*basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header)
  if (!m) return undefined
  const text = Buffer.from(m[1]!, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  return colon < 0 ? undefined : text.slice(0, colon)
}

import { createHash, randomInt } from 'node:crypto'

/** jsms-api.md §6: lowercase hex SHA-1 of the app's credentials, the nonce and the timestamp. */
function callbackSignature(appKey: string, masterSecret: string, nonce: string, timestamp: string): string {
  return createHash('sha1')
    .update(`appKey=${appKey}&appMasterSecret=${masterSecret}&nonce=${nonce}&timestamp=${timestamp}`)
    .digest('hex')
}

/** The form a callback POSTs: nonce (a long), timestamp (ms), signature, type, data (JSON). */
export function callbackForm(
  app: { appKey: string; masterSecret: string },
  type: string,
  data: unknown,
  timestamp: number,
): URLSearchParams {
  const nonce = String(randomInt(1, 2 ** 47))
  const ts = String(timestamp)
  return new URLSearchParams({
    nonce,
    timestamp: ts,
    signature: callbackSignature(app.appKey, app.masterSecret, nonce, ts),
    type,
    data: JSON.stringify(data),
  })
}

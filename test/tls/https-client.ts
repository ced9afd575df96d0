import { request } from 'node:https'
import type { LookupFunction } from 'node:net'

export interface HttpsAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

// Every name resolves to the loopback address: the test plays the DNS of a drop-in setup.
const toLoopback: LookupFunction = (_host, options, callback) => {
  if ((options as { all?: boolean }).all)
    (callback as (e: null, a: object[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

/** An HTTPS request to `https://<host>:<port><path>` where <host> is served by 127.0.0.1. */
export function httpsCall(
  url: string,
  options: {
    ca?: string
    method?: string
    body?: unknown
    auth?: string
    agent?: false | import('node:https').Agent
    /** The client's own address (loopback has many: 127.0.0.2 is another client). */
    localAddress?: string
  } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        ca: options.ca,
        lookup: toLoopback,
        agent: options.agent,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: options.auth ? { authorization: options.auth } : {},
      },
      res => {
        const chunks: Buffer[] = []
        res.on('data', c => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    // Never hang a test or the Docker script on a silent peer.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url}`)))
    req.on('error', reject)
    req.end(payload)
  })
}

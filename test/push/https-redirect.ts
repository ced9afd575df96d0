import http from 'node:http'
import { createRequire } from 'node:module'

// The official Node SDKs (jpush-async, jpush-sdk) hard-code https://api.jpush.cn and friends in
// module-private variables. Both call require('https').request at call time (jpush-async itself,
// jpush-sdk through the `request` library's httpModule), so replacing that function sends their
// requests, options unchanged, to the sandbox over plain HTTP (sdk-wire-capture.md §2).
const require = createRequire(import.meta.url)
const https = require('node:https') as { request: unknown }

/**
 * Points every https.request of this process at 127.0.0.1:port; returns the undo. `path` may
 * rewrite the request's path from the host it was meant for (another data centre's shapes).
 */
export function redirectHttpsTo(port: number, path?: (host: string, path: string) => string): () => void {
  const original = https.request
  https.request = (options: http.RequestOptions, cb?: (res: http.IncomingMessage) => void) =>
    // No agent: theirs is an https.Agent (TLS), and http.request must not be handed one.
    http.request(
      {
        ...options,
        ...(path ? { path: path(options.hostname ?? options.host ?? '', options.path ?? '/') } : {}),
        protocol: 'http:',
        host: '127.0.0.1',
        hostname: '127.0.0.1',
        port,
        agent: undefined,
      },
      cb,
    )
  return () => {
    https.request = original
  }
}

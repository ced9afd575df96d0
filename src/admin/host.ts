import type { IncomingMessage } from 'node:http'

/**
 * The Admin API's host (jpush-api.md §1.1: py core.py and the Java JPushConfig hard-code it). Its
 * paths are `/v1/app…`, which are JSMS's prefix here: a request naming this host in `Host` is
 * routed to the Admin API's own prefix, ADMIN_PREFIX, which also answers on the plain port for
 * clients that can be pointed at a base URL (`http://127.0.0.1:8080/admin` + `/v1/app`).
 */
export const ADMIN_HOST = 'admin.jpush.cn'
export const ADMIN_PREFIX = '/admin'

/**
 * Fastify's `rewriteUrl`: the URL to route. Only a request to the Admin API's paths (`/v1…`) whose
 * Host (or HTTP/2 :authority) is the admin host, port aside, is moved under ADMIN_PREFIX; every other
 * request keeps its URL byte for byte (JSMS's /v1 on every other host; the control plane on this one).
 */
export function routeAdminHost(req: IncomingMessage): string {
  const url = req.url ?? '/'
  if (!/^\/+v1(\/|\?|$)/i.test(url)) return url
  const host = req.headers.host ?? (req.headers[':authority'] as string | undefined)
  if (host === undefined) return url
  return host.replace(/:\d+$/, '').toLowerCase() === ADMIN_HOST ? `${ADMIN_PREFIX}${url}` : url
}

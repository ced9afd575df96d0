import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EXPOSITION_TYPE } from '../metrics/exposition.js'
import type { Metrics } from '../metrics/metrics.js'

/**
 * METRICS_PORT: a listener of its own answering `GET /metrics` (and `/_sandbox/metrics`, the API
 * port's path) without credentials, for a Prometheus that scrapes an internal port the API's
 * callers never see. Nothing else is served there: every other path is a plain 404.
 */
export async function listenMetrics(
  metrics: Pick<Metrics, 'render'>,
  { port, host }: { port: number; host: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/_sandbox/metrics')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n')
      return
    }
    res.writeHead(200, { 'content-type': EXPOSITION_TYPE, 'cache-control': 'no-store' }).end(metrics.render())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // A failed accept once listening is logged by nobody: it must not end the process.
  server.on('error', () => {})
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

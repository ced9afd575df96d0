// The fallback load generator where wrk is missing: autocannon in a process of its own, so that it
// shares neither the server's event loop nor the bench's. Takes the round's options (load.ts) as
// JSON in argv[2]; prints the figures as one JSON line.
import autocannon from 'autocannon'

const o = JSON.parse(process.argv[2])
let counter = o.body?.start ?? 0
const aliases = o.body?.aliases ?? 1
const mobile = () => `13${String(++counter % 1_000_000_000).padStart(9, '0')}`
const alias = () => `u${(++counter * 7919) % aliases}`
const expand = template => template.replaceAll('{{mobile}}', mobile).replaceAll('{{alias}}', alias)
// Several apps' credentials (load-types.ts `authorizations`): one request each in turn.
const auths = o.authorizations ?? []
let turn = 0
const authorization = headers =>
  auths.length > 0 ? { ...headers, authorization: auths[++turn % auths.length] } : headers

const request = {
  method: o.method ?? 'GET',
  path: o.path,
  headers: { 'content-type': 'application/json', ...o.headers },
  ...(typeof o.body === 'object' && o.body !== null
    ? {
        setupRequest: req => ({ ...req, headers: authorization(req.headers), body: expand(o.body.template) }),
      }
    : o.body === undefined
      ? {}
      : { body: o.body }),
}
const result = await autocannon({
  url: o.url,
  connections: o.connections ?? 50,
  duration: o.durationSeconds ?? 5,
  timeout: 10,
  requests: [request],
})
const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx']
process.stdout.write(
  `${JSON.stringify({
    requests: answered,
    seconds: result.duration,
    non2xx: result['4xx'] + result['5xx'],
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  })}\n`,
)

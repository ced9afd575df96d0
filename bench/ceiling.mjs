// Plain JavaScript on purpose: run by node without the tsx loader, like the built product, so
// the two RSS figures compare processes that load the same kind of code.
import Fastify from 'fastify'

// The ceiling the product is measured against: bare Fastify on the same machine, in the same run.
// (a) GET with a small JSON answer; (b) POST of a ~200-byte JSON body with HTTP Basic checked
// against an in-memory map — the least any JSMS emulator has to do per request.
const credentials = new Map([['7d431e42dfa6a6d693ac2d04', '5e987ac6d2e04d95a9d8f0d1']])

const app = Fastify({ logger: false })

app.get('/ping', async () => ({ ok: true, service: 'ceiling' }))

app.post('/post', async (req, reply) => {
  const header = req.headers.authorization ?? ''
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (!header.startsWith('Basic ') || credentials.get(decoded.slice(0, colon)) !== decoded.slice(colon + 1)) {
    return reply.code(401).send({ error: { code: 50002, message: 'auth failed' } })
  }
  const body = req.body
  return { msg_id: String(body.mobile ?? '') }
})

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
process.stdout.write(`${JSON.stringify({ url: address })}\n`)
// Exit on SIGTERM like the product does (a --cpu-prof profile is written on exit only).
process.on('SIGTERM', () => app.close().then(() => process.exit(0)))

import type { FastifyInstance } from 'fastify'

export interface RouteInfo {
  url: string
  methods: string[]
}

/**
 * Every route the app has registered, read from Fastify's own route tree (`printRoutes`), so
 * routes that later issues add are fuzzed without touching this suite. Lines look like
 * `│   └── /:msg_id/valid (POST, GET)`: four characters of indentation per level.
 */
export function listRoutes(app: FastifyInstance): RouteInfo[] {
  const out: RouteInfo[] = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!m) continue
    const depth = m[1]!.length / 4
    const url = (stack[depth - 1] ?? '') + m[2]!
    stack[depth] = url
    stack.length = depth + 1
    if (m[3]) out.push({ url, methods: m[3].split(', ') })
  }
  return out
}

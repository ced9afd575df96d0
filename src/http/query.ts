// Query-string readers. Fastify's parser turns a key given twice (`?mobile=a&mobile=b`) into an
// array, so `req.query` values are not always strings: read them through here.

type Query = unknown

/** One parameter as text: the first value when the key is repeated, undefined when absent. */
export function queryParam(query: Query, name: string): string | undefined {
  const value = (query as Record<string, unknown> | null | undefined)?.[name]
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : undefined
}

/** `?limit=`: a whole number clamped to 1..max; `fallback` when absent, 0 or not a number. */
export function queryLimit(query: Query, fallback = 100, max = 1000): number {
  const n = Number.parseInt(queryParam(query, 'limit') ?? '', 10) || fallback
  return Math.min(Math.max(n, 1), max)
}

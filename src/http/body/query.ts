// Query-string readers. Fastify's parser turns a key given twice (`?mobile=a&mobile=b`) into an
// array, so a query value is not always a string: read it through here.

/** A query parameter as Fastify's parser gives it: text, or every value when the key repeats. */
export type QueryValue = string | string[] | undefined

/** One parameter as text: the first value when the key is repeated, undefined when absent. */
export function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : undefined
}

/** `?limit=`: a whole number clamped to 1..max; `fallback` when absent, 0 or not a number. */
export function limitOf(value: unknown, fallback = 100, max = 1000): number {
  const n = Number.parseInt(firstValue(value) ?? '', 10) || fallback
  return Math.min(Math.max(n, 1), max)
}

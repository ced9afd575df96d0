// Query-string readers. Fastify's parser turns a key given twice (`?mobile=a&mobile=b`) into an
// array, so a query value is not always a string: read it through here.

/** A query parameter as Fastify's parser gives it: text, or every value when the key repeats. */
export type QueryValue = string | string[] | undefined

/** One parameter as text: the first value when the key is repeated, undefined when absent. */
export function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first : undefined
}

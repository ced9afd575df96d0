import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../errors.js'

// What a vendor route reads, as values. The vendors' readers are lenient (numbers as strings, `+86`
// mobiles, `[]` for no parameters…) and check in an order that is part of the product, so they
// stay hand-written; each is declared once, as an object that carries its reading, the schema the
// OpenAPI document shows of what a caller sends, and the failures a wrong value answers. A route
// declares the parts it reads (vendorRoute, routes.ts); its operation in the document (parameters,
// request body, failures in the order it checks them) is derived from those declarations.
//
// - A Field reads one value (`mobile`, `temp_id`, `platform`…): `read(value, req)`.
// - A Part reads one part of the request (its params, query or body) and hands the handler a
//   typed result: `params({…fields})`, `query({…fields})`, `jsonBody(object, {…fields})`, or, for
//   a reader whose quirks a list of fields would hide (a push payload, a multipart form), `part()`
//   around a hand-written one whose schema and failures sit beside it.

/** One field: how the vendor reads it, what the document shows of it, what a wrong value answers. */
export interface Field<T> {
  /** The vendor's reading of the value (undefined when absent); throws the vendor's ApiError. */
  read(value: unknown, req: FastifyRequest): T
  /** What a caller may send, for the document only: an optional field's schema is `.optional()`. */
  schema: z.ZodType
  /** What a wrong value answers, in the order the reader checks (one example per cause). */
  errors: readonly ApiError[]
  /**
   * Dotted paths inside the value of integers longer than a double keeps ('' is the value itself):
   * a bare JSON number there reaches the reader as its exact digits (body/json-text.ts).
   */
  exactIntegers?: readonly string[]
}

export const field = <T>(f: Field<T>): Field<T> => f

export type PartName = 'params' | 'query' | 'body'

/** One part of a request, read as a whole: what a route's handler gets, or reads itself later. */
export interface Part<T, In extends PartName = PartName, Args extends unknown[] = []> {
  in: In
  /** Reads the part; `args` are what the handler knows by then (a late read, routes.ts). */
  read(req: FastifyRequest, ...args: Args): T
  /** What a caller sends in this part (a zod object for params and query). */
  readonly schema: z.ZodType
  /** What it answers, in the order it checks. */
  readonly errors: readonly ApiError[]
  /** A body that is not JSON: its media type (multipart/form-data is read as raw bytes). */
  media?: string
  /** A body limit of its own, in bytes (the surface's is 1 MiB). */
  limit?: number
  /** Dotted paths of exact integers in the body (Field.exactIntegers). */
  exactIntegers?: readonly string[]
}

/** A hand-written part, declared with its schema and failures beside it. */
export const part = <T, In extends PartName, Args extends unknown[] = []>(
  p: Part<T, In, Args>,
): Part<T, In, Args> => p

type Shape = Record<string, Field<unknown>>
/** What a set of fields reads: each field's value under the vendor's name. */
export type Fields<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never }

/** A whole object as the vendor reads it before its fields: its failures, in order. */
export interface ObjectReader {
  read(value: unknown): Record<string, unknown>
  errors: readonly ApiError[]
}

/**
 * The fields of an object, read one after the other in the order written (the vendor's order of
 * checks); the document's schema is the object of their schemas, its failures theirs in order.
 */
function fieldsOf<S extends Shape, In extends PartName>(
  where: In,
  shape: S,
  source: (req: FastifyRequest) => Record<string, unknown>,
  before: readonly ApiError[] = [],
): Part<Fields<S>, In> {
  const entries = Object.entries(shape)
  let schema: z.ZodType | undefined
  return {
    in: where,
    read(req) {
      const from = source(req)
      const out: Record<string, unknown> = {}
      for (const [name, f] of entries) {
        try {
          out[name] = f.read(from[name], req)
        } catch (err) {
          throw err instanceof ApiError ? err.because(`field \`${name}\`: ${err.reason ?? err.message}`) : err
        }
      }
      return out as Fields<S>
    },
    // Composed when the document is first asked for, not at every start.
    get schema() {
      schema ??= z.object(Object.fromEntries(entries.map(([name, f]) => [name, f.schema])))
      return schema
    },
    errors: [...before, ...entries.flatMap(([, f]) => f.errors)],
    exactIntegers: entries.flatMap(([name, f]) =>
      (f.exactIntegers ?? []).map(path => (path === '' ? name : `${name}.${path}`)),
    ),
  }
}

const NONE: Record<string, unknown> = {}

/** Path parameters: Fastify hands them over as text. */
export const params = <S extends Shape>(shape: S) =>
  fieldsOf('params', shape, req => (req.params as Record<string, unknown> | undefined) ?? NONE)

/** Query parameters: text, or an array of texts when the key is repeated (body/query.ts). */
export const query = <S extends Shape>(shape: S) =>
  fieldsOf('query', shape, req => (req.query as Record<string, unknown> | undefined) ?? NONE)

/** A JSON body: the object as `object` reads it, then each field. */
export const jsonBody = <S extends Shape>(object: ObjectReader, shape: S) =>
  fieldsOf('body', shape, req => object.read(req.body), object.errors)

/** A path parameter the handler takes as it comes (an id it looks up). */
export const text = (description?: string) =>
  field({
    read: value => value as string,
    schema: description === undefined ? z.string() : z.string().describe(description),
    errors: [],
  })

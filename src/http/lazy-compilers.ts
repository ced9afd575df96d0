import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<Factories['buildValidator']>
type SerializerFactory = NonNullable<Factories['buildSerializer']>

// Fastify requires its default schema compilers (ajv with its formats, fast-json-stringify: about
// 110 files) when an instance is made, whether or not a route ever compiles a schema with them.
// None does here: the vendor routes read their bodies by hand, and /_sandbox installs zod's
// compilers (schema.ts). Handed to Fastify as factories that load them on first use, the start
// does not pay for them (docs/performance.md, round 3). They are Fastify's own dependencies, so
// they are resolved from Fastify's folder, as Fastify itself would.
let fastifyRequire: NodeRequire | undefined
const fromFastify = (id: string) => {
  fastifyRequire ??= createRequire(createRequire(import.meta.url).resolve('fastify'))
  return fastifyRequire(id)
}

let buildValidator: ValidatorFactory | undefined
let buildSerializer: SerializerFactory | undefined

/** Fastify's `schemaController` option: its default compilers, loaded when first asked for. */
export const lazySchemaCompilers = {
  compilersFactory: {
    buildValidator: ((...args: unknown[]) => {
      buildValidator ??= (fromFastify('@fastify/ajv-compiler') as () => ValidatorFactory)()
      return (buildValidator as (...a: unknown[]) => unknown)(...args)
    }) as ValidatorFactory,
    buildSerializer: ((...args: unknown[]) => {
      buildSerializer ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)()
      return (buildSerializer as (...a: unknown[]) => unknown)(...args)
    }) as SerializerFactory,
  },
}

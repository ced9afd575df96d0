import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A CommonJS dependency loaded on first use, not at start. Most runs never make a certificate
 * (node-forge), call a callback URL (undici), read a YAML seed (yaml) or a signature form
 * (busboy); loaded eagerly they cost about 20 MiB of idle RSS and part of the cold start
 * (docs/performance.md).
 */
export function lazy<T>(id: string): () => T {
  let loaded: T | undefined
  return () => {
    loaded ??= require(id) as T
    return loaded
  }
}

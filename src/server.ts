#!/usr/bin/env node
// The process's entry. Node's own modules are loaded first (process/builtins.ts: under V8's own flags,
// from node's code cache), then V8's heap sizing (process/heap.ts) is set first, and the sandbox (process/run.ts) is
// imported only after it: a static import would load and compile its ~700 modules before any
// module's code runs, and that loading is most of what grows the young generation at start.
import './process/builtins.js'
import './process/heap.js'
import { fileURLToPath } from 'node:url'
import { enableCompileCache } from './process/compile-cache.js'

// The build only (dist/server.js): under tsx (`npm run dev`) the sources change at every edit.
if (import.meta.url.endsWith('.js')) enableCompileCache(fileURLToPath(new URL('compile-cache', import.meta.url)))

const { main } = await import('./process/run.js')
main().catch(err => {
  console.error(err)
  process.exit(1)
})

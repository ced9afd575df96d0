#!/usr/bin/env node
// The process's entry. Node's own modules are loaded first (process/builtins.ts: under V8's own flags,
// from node's code cache), then V8's heap sizing (process/heap.ts) is set first, and the sandbox (process/run.ts) is
// loaded only after it: a static import would load and compile its ~700 modules before any
// module's code runs, and that loading is most of what grows the young generation at start.
// In the build (dist/server.js) the sandbox is a script compiled with a V8 code cache
// (process/script-bundle.ts; SANDBOX_SCRIPT, its file's name, is set by scripts/bundle.ts);
// from the sources (tsx) it is imported as any module.
import './process/builtins.js'
import { fileURLToPath } from 'node:url'
import { startupDone } from './process/heap.js'
import type * as Run from './process/run.js'
import { loadScriptBundle } from './process/script-bundle.js'

declare const SANDBOX_SCRIPT: string | undefined

const sandbox =
  typeof SANDBOX_SCRIPT === 'string'
    ? loadScriptBundle<typeof Run>(fileURLToPath(new URL(SANDBOX_SCRIPT, import.meta.url)))
    : { exports: await import('./process/run.js'), cached: false, saveCache: () => {} }
sandbox.exports
  .main(() => {
    // The code cache holds what the start compiled, under the start's flags (script-bundle.ts).
    sandbox.saveCache()
    startupDone()
  })
  .catch(err => {
    console.error(err)
    process.exit(1)
  })

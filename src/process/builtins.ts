// Node's own modules the start loads before its first 200 (process.moduleLoadList), imported before
// heap.ts changes V8's flags. Node ships its modules with V8 code caches, and V8 accepts a cache only
// under the flags it was made with: once heap.ts has set any flag, every built-in module loaded
// after it is compiled from source, ≈ 90 of them at start (≈ 10 % of its CPU, docs/performance.md
// "The start and idle memory"). A module's static imports are all loaded before any of them runs,
// so listing them here loads them under node's own flags. Missing one costs time, never behaviour.
import 'node:diagnostics_channel'
import 'node:net'
import 'node:crypto'
import 'node:tls'
import 'node:http'
import 'node:dns'
import 'node:perf_hooks'
import 'node:os'
import 'node:timers/promises'
import 'node:assert'
import 'node:worker_threads'
import 'node:https'
import 'node:http2'
import 'node:dgram'
import 'node:child_process'
import 'node:cluster'

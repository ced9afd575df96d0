// The process's entry. V8's heap sizing (heap.ts) is set first, and the sandbox (run.ts) is
// imported only after it: a static import would load and compile its ~700 modules before any
// module's code runs, and that loading is most of what grows the young generation at start.
import './heap.js'

const { main } = await import('./run.js')
main().catch(err => {
  console.error(err)
  process.exit(1)
})

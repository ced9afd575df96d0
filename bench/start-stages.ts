// `npx tsx bench/start-stages.ts`: the stages of bench/start-stages.mjs, bundled as the server is
// (scripts/bundle.ts) into dist/stages/, then timed by that file in a process of its own.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { bundleServer } from '../scripts/bundle.js'

const root = join(import.meta.dirname, '..')
await bundleServer(root, join(root, 'dist', 'stages'), {
  config: 'src/config.ts',
  logger: 'src/log/logger.ts',
  db: 'src/store/engine/db.ts',
  app: 'src/app.ts',
})
const run = spawnSync(process.execPath, [join(root, 'bench', 'start-stages.mjs')], { stdio: 'inherit' })
process.exit(run.status ?? 1)

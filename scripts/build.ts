// `npm run build` (after the client package's own build): the server as one bundle in dist/
// (scripts/bundle.ts), Swagger UI's files in dist/swagger-ui/, a new database already migrated
// (dist/fresh-<digest>.db, copied at the start on a new DB_PATH: src/store/engine/db.ts), and the
// licences of the packages bundled in it, in dist/THIRD-PARTY-NOTICES.txt (their code ships in
// dist/, so their notices do too).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFreshDatabase } from '../src/store/engine/db.js'
import { bundleServer, copySwaggerUi } from './bundle.js'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')

rmSync(dist, { recursive: true, force: true })
const metafile = await bundleServer(root, dist)
copySwaggerUi(root, dist)
writeFreshDatabase(dist, join(root, 'migrations'))
// Swagger UI's files ship in dist/swagger-ui/ (copySwaggerUi): its notice too.
writeFileSync(
  join(dist, 'THIRD-PARTY-NOTICES.txt'),
  notices([...Object.keys(metafile.inputs), 'node_modules/swagger-ui-dist/package.json']),
)

/** Each bundled package once: its name, version, licence and the text of its licence file. */
function notices(inputs: string[]): string {
  const dirs = new Set<string>()
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (m) dirs.add(m[1]!)
  }
  const parts = [...dirs].sort().map(dir => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
      license?: string
    }
    const file = readdirSync(join(root, dir)).find(f => /^(licen[cs]e|copying)(\.|$)/i.test(f))
    const text = file
      ? readFileSync(join(root, dir, file), 'utf8').trim()
      : '(no licence file in the package)'
    return `${pkg.name}@${pkg.version} (${pkg.license ?? 'see its package'})\n\n${text}\n`
  })
  return `jiguang-sandbox bundles these packages in dist/ (Swagger UI's files in dist/swagger-ui/):\n\n${parts.join(`\n${'-'.repeat(72)}\n\n`)}`
}

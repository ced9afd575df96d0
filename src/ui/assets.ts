import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import { PACKAGE_DIR } from '../package.js'

// The web UI's files, served as they are written: HTML, CSS and JavaScript modules, no build step
// (docs/web-ui.md). They sit in src/ui/public (its folders: lib/, components/, views/), where the
// built server finds them too: the package (`files`) and the image ship that folder as it is.
// The two libraries the page is made with, Preact and htm, are served from their own packages'
// ES module builds (vendor/…, named in the page's import map), never from a CDN.

export const PUBLIC_DIR = join(PACKAGE_DIR, 'src', 'ui', 'public')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/**
 * The libraries' files, by the name the page asks for (index.html's import map): resolved from
 * wherever this module runs (src/ under tsx, the bundle in dist/, an installed package), as Node
 * resolves any dependency. htm's entry for `require` is CommonJS: its ES module lies beside it.
 */
function vendorFiles(): Record<string, string> {
  const require = createRequire(import.meta.url)
  return {
    'vendor/preact.mjs': require.resolve('preact'),
    'vendor/hooks.mjs': require.resolve('preact/hooks'),
    'vendor/htm.mjs': join(dirname(require.resolve('htm')), 'htm.mjs'),
  }
}

export interface Asset {
  type: string
  body: Buffer
  /** A strong validator: the browser asks again at each load and gets 304 while it is unchanged. */
  etag: string
}

function asset(file: string, type: string): Asset {
  const body = readFileSync(file)
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
  return { type, body, etag }
}

/** Every file of the folder and its sub-folders, by its path there (`views/phones.js`), read once. */
export function loadAssets(dir = PUBLIC_DIR): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>()
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const type = TYPES[extname(name)]
    if (type) assets.set(name.split('\\').join('/'), asset(join(dir, name), type))
  }
  for (const [name, file] of Object.entries(vendorFiles())) {
    assets.set(name, asset(file, TYPES['.mjs']!))
    // Their source maps, for the browser's developer tools (never fetched otherwise).
    if (existsSync(`${file}.map`)) assets.set(`${name}.map`, asset(`${file}.map`, TYPES['.map']!))
  }
  return assets
}

/**
 * The page's one inline script is its import map (browsers read no other kind of import map):
 * the policy allows exactly it, by its hash (CSP Level 2 `'sha256-…'`), and no other inline script.
 */
export function importMapHash(page: Asset): string {
  const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(page.body.toString('utf8'))
  if (!map) throw new Error('src/ui/public/index.html has no import map')
  return `'sha256-${createHash('sha256').update(map[1]!).digest('base64')}'`
}

import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { PACKAGE_DIR } from '../package.js'

// The web UI's files, served as they are written: plain HTML, CSS and JavaScript modules, no
// build step and no library (README "Web UI"). They sit in src/ui/public, where the built server
// finds them too: the package (`files`) and the image ship that folder as it is.

export const PUBLIC_DIR = join(PACKAGE_DIR, 'src', 'ui', 'public')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

export interface Asset {
  type: string
  body: Buffer
  /** A strong validator: the browser asks again at each load and gets 304 while it is unchanged. */
  etag: string
}

/** Every file of the folder, by name, read once: a few dozen kilobytes. */
export function loadAssets(dir = PUBLIC_DIR): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>()
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)]
    if (!type) continue
    const body = readFileSync(join(dir, name))
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
    assets.set(name, { type, body, etag })
  }
  return assets
}

import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Where the package's own files are (its migrations, the web UI's files, package.json) and what it
// is called. The same code runs from src/ (tsx, the tests), from the bundle in dist/ (npm start,
// `npx jiguang-sandbox`, the image) and from a copy of the bundle elsewhere, each at another depth
// below the package: so the folder is found by walking up to the first package.json, once, at start.

function packageDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

/** The folder holding the package's package.json. */
export const PACKAGE_DIR = packageDir(dirname(fileURLToPath(import.meta.url)))

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string
  version: string
}

export const NAME: string = manifest.name
export const VERSION: string = manifest.version

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_DIR } from '../package.js'

// What an agent reads about the sandbox, from the package's own files (shipped with it: package.json
// `files`, the image): llms.txt, the README and every page of docs/, each an MCP resource; the OpenAPI
// document is the sandbox's own (GET /_sandbox/openapi.json), read when asked.

/** One page of the manual, as a resource. */
export interface Page {
  uri: string
  /** Its path in the package (README.md, docs/sms.md). */
  path: string
  /** Its first heading. */
  title: string
}

const LLMS_TXT = 'llms.txt'
const SCHEME = 'jiguang-sandbox://'

let pages: Page[] | undefined

/** The README and docs/*.md, found once; none when the package was copied without them. */
export function manualPages(): readonly Page[] {
  pages ??= (() => {
    const docs = join(PACKAGE_DIR, 'docs')
    const paths = [
      'README.md',
      ...(existsSync(docs)
        ? readdirSync(docs)
            .filter(f => f.endsWith('.md'))
            .sort()
            .map(f => `docs/${f}`)
        : []),
    ]
    return paths
      .filter(path => existsSync(join(PACKAGE_DIR, path)))
      .map(path => ({ uri: `${SCHEME}${path}`, path, title: titleOf(readPackageFile(path)) ?? path }))
  })()
  return pages
}

/** The first `# Heading` of a Markdown text. */
function titleOf(markdown: string): string | undefined {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim()
}

export const LLMS_TXT_URI = `${SCHEME}${LLMS_TXT}`
export const OPENAPI_URI = `${SCHEME}openapi.json`

/** A file of the package, as text. */
export function readPackageFile(path: string): string {
  return readFileSync(join(PACKAGE_DIR, path), 'utf8')
}

let llms: string | undefined

/** llms.txt, read once: served at /llms.txt and as a resource. */
export function llmsTxt(): string {
  llms ??= readPackageFile(LLMS_TXT)
  return llms
}

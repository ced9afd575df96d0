import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSeedFile } from '../src/seed/seed-file.js'
import { createTestApp } from './helpers.js'
import { listRoutes } from './reliability/routes.js'

// The README is the manual: these keep it true as the code moves.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

describe('README', () => {
  it('shows a seed file that the sandbox accepts', () => {
    const section = readme.slice(readme.indexOf('### Seed file'))
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1]
    expect(yaml).toBeDefined()
    const path = join(mkdtempSync(join(tmpdir(), 'readme-')), 'seed.yaml')
    writeFileSync(path, yaml!)
    const seed = readSeedFile(path)
    expect(seed.apps[0]?.settings.rate_limits?.push).toBe(600)
  })

  it('documents every environment variable the configuration reads', () => {
    const source = readFileSync(new URL('../src/config.ts', import.meta.url), 'utf8')
    const names = [...source.matchAll(/^ {2}([A-Z_]+): z\./gm)].map(m => m[1]!)
    expect(names.length).toBeGreaterThan(10)
    for (const name of names) expect(readme, name).toContain(`| \`${name}\` |`)
  })

  it('lists every route the sandbox serves', async () => {
    const { app } = await createTestApp()
    const table = readme.slice(readme.indexOf('## Endpoints at a glance'), readme.indexOf('## SMS API v1'))
    for (const { url } of listRoutes(app)) {
      const documented = url === '/' ? '`GET /`' : url.replace(/:([a-z_]+)/g, '{$1}')
      expect(table, url).toContain(documented)
    }
  })
})

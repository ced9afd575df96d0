import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SETTINGS } from '../../src/config.js'
import { readSeedFile } from '../../src/seed/seed-file.js'
import { createTestApp } from '../helpers.js'
import { listRoutes } from '../reliability/routes.js'
import { readPage, section } from './pages.js'

// The manual's reference tables stay true as the code moves: the seed file, the environment and
// the route list, where docs/ keeps them. (The control plane's error table: test/sandbox/errors.)

describe('docs/configuration.md', () => {
  const page = readPage('docs/configuration.md')

  it('shows a seed file that the sandbox accepts', () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section(page, 'Seed file (`SANDBOX_CONFIG`)'))?.[1]
    expect(yaml).toBeDefined()
    const path = join(mkdtempSync(join(tmpdir(), 'docs-')), 'seed.yaml')
    writeFileSync(path, yaml!)
    const seed = readSeedFile(path)
    expect(seed.apps[0]?.settings.rate_limits?.push).toBe(600)
  })

  it('documents every environment variable the configuration reads, with its flag', () => {
    const settings = Object.values(SETTINGS)
    expect(settings.length).toBeGreaterThan(10)
    const table = section(page, 'Environment variables')
    for (const s of settings) expect(table, s.env).toContain(`| \`${s.env}\` | \`--${s.flag}\` |`)
  })
})

describe('docs/README.md', () => {
  it('lists every route the sandbox serves', async () => {
    const { app } = await createTestApp()
    const table = section(readPage('docs/README.md'), 'Endpoints at a glance')
    for (const { url } of listRoutes(app)) {
      const documented = url === '/' ? '`GET /`' : url.replace(/:([a-z_]+)/g, '{$1}')
      expect(table, url).toContain(documented)
    }
  })
})

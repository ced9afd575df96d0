import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { serverBuild } from '../server-build.js'

// The web UI's page and its files (src/ui/routes.ts), and the way a browser gets there.

describe('GET /_sandbox/ui/: the page, open to anyone (it signs in on a form of its own)', () => {
  it('without credentials: the page, never a Basic challenge (no browser prompt)', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({ method: 'GET', url: '/_sandbox/ui/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['www-authenticate']).toBeUndefined()
    expect(res.body).toContain('<script type="module" src="/_sandbox/ui/main.js">')
  })

  it('holds nothing of any app: the same page with or without credentials', async () => {
    const { app } = await createTestApp()
    const bare = await app.inject({ url: '/_sandbox/ui/' })
    const signed = await app.inject({ url: '/_sandbox/ui/', headers: { authorization: defaultAuth } })
    expect(signed.body).toBe(bare.body)
  })

  it('the page, its files from this origin only', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({ url: '/_sandbox/ui/', headers: { authorization: defaultAuth } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    // Nothing from elsewhere: every src and href is this server's.
    for (const [, ref] of res.body.matchAll(/(?:src|href)="([^"#]*)"/g))
      expect(ref).toMatch(/^\/_sandbox\/(ui\/|docs$)/)
  })

  it('GET /_sandbox/ui/session is gone: the page keeps what was typed on its sign-in form', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/_sandbox/ui/session')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe(90004)
  })
})

describe('every HTML page the sandbox serves', () => {
  it('refuses to be framed by another site (X-Frame-Options and CSP frame-ancestors)', async () => {
    const { app } = await createTestApp()
    // Every route the OpenAPI document says answers text/html: a page added later is checked too.
    const doc = (await app.inject({ url: '/_sandbox/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: object }> }>>
    }
    const pages = Object.entries(doc.paths)
      .filter(([, ops]) => Object.keys(ops.get?.responses?.['200']?.content ?? {}).includes('text/html'))
      .map(([path]) => path)
    expect(pages).toEqual(expect.arrayContaining(['/_sandbox/docs', '/_sandbox/ui']))
    for (const url of [...pages, '/_sandbox/ui/']) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } })
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([
        url,
        200,
        'text/html; charset=utf-8',
      ])
      expect([url, res.headers['x-frame-options']]).toEqual([url, 'DENY'])
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'")
      expect(res.headers['x-content-type-options'], url).toBe('nosniff')
    }
  })
})

describe('the files of the page', () => {
  it('are public, typed, and answered 304 while unchanged', async () => {
    const { app } = await createTestApp()
    for (const [name, type] of [
      ['main.js', 'text/javascript; charset=utf-8'],
      ['views/phones.js', 'text/javascript; charset=utf-8'],
      ['vendor/preact.mjs', 'text/javascript; charset=utf-8'],
      ['style.css', 'text/css; charset=utf-8'],
      ['icon.svg', 'image/svg+xml'],
    ] as const) {
      const res = await app.inject({ url: `/_sandbox/ui/${name}` })
      expect(res.statusCode, name).toBe(200)
      expect(res.headers['content-type'], name).toBe(type)
      const again = await app.inject({
        url: `/_sandbox/ui/${name}`,
        headers: { 'if-none-match': String(res.headers.etag) },
      })
      expect(again.statusCode, name).toBe(304)
    }
  })

  it('a file that is not one is 404 90004; the page itself is only served behind its credentials', async () => {
    const { app } = await createTestApp()
    for (const url of [
      '/_sandbox/ui/nope.js',
      '/_sandbox/ui/index.html',
      '/_sandbox/ui/..%2Fpackage.json',
      '/_sandbox/ui/a/b/c',
      '/_sandbox/ui/views/nope.js',
      '/_sandbox/ui/vendor/..%2F..%2Fpackage.json',
    ]) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json().error.code, url).toBe(90004)
    }
  })

  it('every module the page imports is served, Preact and htm through the import map', async () => {
    const { app } = await createTestApp()
    const page = await app.inject({ url: '/_sandbox/ui/' })
    const map: Record<string, string> = JSON.parse(
      /<script type="importmap">([\s\S]*?)<\/script>/.exec(page.body)![1]!,
    ).imports
    expect(Object.keys(map).sort()).toEqual(['htm', 'preact', 'preact/hooks'])
    const seen = new Set<string>()
    const queue = ['/_sandbox/ui/main.js']
    while (queue.length > 0) {
      const url = queue.shift()!
      if (seen.has(url)) continue
      seen.add(url)
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toBe('text/javascript; charset=utf-8')
      // Static imports (`import … from '…'` at a statement's start; minified: after `;` or `}`), and
      // the views' modules, imported when first shown (`import('./phones.js')`).
      const imports = [
        ...res.body.matchAll(/(?:^|[;}])\s*import\s*(?:[^'"]*?from\s*)?["']([^"']+)["']/gm),
        ...res.body.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
      ]
      for (const [, dep] of imports) {
        const target = dep!.startsWith('.') ? new URL(dep!, `http://x${url}`).pathname : map[dep!]
        expect(target, `${url} imports ${dep}`).toBeDefined()
        queue.push(target!)
      }
    }
    // The page's own modules in their folders, and the two libraries' ES module builds.
    expect(seen).toContain('/_sandbox/ui/views/requests.js')
    expect(seen).toContain('/_sandbox/ui/views/apps.js')
    expect(seen).toContain('/_sandbox/ui/vendor/preact.mjs')
    expect(seen).toContain('/_sandbox/ui/vendor/hooks.mjs')
    expect(seen).toContain('/_sandbox/ui/vendor/htm.mjs')
    expect(seen.size).toBeGreaterThan(20)
  })

  it("the page's one inline script is its import map, allowed by its hash alone", async () => {
    const { app } = await createTestApp()
    const res = await app.inject({ url: '/_sandbox/ui/' })
    const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(res.body)![1]!
    const hash = createHash('sha256').update(map).digest('base64')
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}'`)
    expect(res.headers['content-security-policy']).not.toContain('unsafe')
    expect([...res.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)].map(m => m[0])).toEqual([
      '<script type="importmap">',
    ])
  })
})

describe('Preact and htm, from the packages the sandbox depends on', () => {
  it('are served by the built server (the bundle in dist/, as npx and the image run it)', async () => {
    const child = spawn(process.execPath, [serverBuild().server, '--port', '0', '--db', ':memory:'], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', chunk => {
          out += chunk
          const line = out.split('\n').find(l => l.includes('listening on'))
          if (line) resolve((JSON.parse(line) as { url: string }).url)
        })
        child.once('exit', code => reject(new Error(`the server exited (${code}) before listening`)))
      })
      const require = createRequire(import.meta.url)
      for (const [name, file] of [
        ['vendor/preact.mjs', require.resolve('preact')],
        ['vendor/hooks.mjs', require.resolve('preact/hooks')],
        // htm's entry for require() is CommonJS: its ES module lies beside it.
        ['vendor/htm.mjs', join(dirname(require.resolve('htm')), 'htm.mjs')],
      ]) {
        const res = await fetch(`${url}/_sandbox/ui/${name}`)
        expect(res.status, name).toBe(200)
        expect(await res.text(), name).toBe(readFileSync(file!, 'utf8'))
      }
      expect((await fetch(`${url}/_sandbox/ui/views/apps.js`)).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
  })
})

describe('GET / from a browser', () => {
  it('Accept: text/html is sent to the web UI; curl and the SDKs still get the JSON index', async () => {
    const { app } = await createTestApp()
    const browser = await app.inject({
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    })
    expect(browser.statusCode).toBe(302)
    expect(browser.headers.location).toBe('/_sandbox/ui/')
    expect(browser.headers.vary).toBe('Accept')
    for (const accept of ['*/*', 'application/json', undefined]) {
      const res = await app.inject({ url: '/', headers: accept ? { accept } : {} })
      expect(res.statusCode, accept).toBe(200)
      expect(res.json().ui, accept).toBe('/_sandbox/ui/ (the web UI: open it in a browser)')
    }
  })
})

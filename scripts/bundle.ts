import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild'

// The server as one bundle (npm run build: scripts/build.ts; the tests' copy of it:
// test/process-build.ts). Loading ≈ 700 files through Node's ES module loader was most of a fresh
// start (docs/performance.md, "Fast start"): one file loads in a fraction of that. Everything is
// bundled but better-sqlite3 (a native addon) and what the code finds in node_modules at run time
// itself: swagger-ui-dist's files, and the CommonJS packages loaded on first use (src/lazy.ts),
// which stay installed dependencies. What is reached only through `import()` is split into chunks
// of its own (`chunks/`), so it is still loaded only when used.

/**
 * zod's error messages in English only. `zod` exports its 40-odd locales as one namespace, which a
 * bundler cannot leave out: 360 KiB of the bundle, parsed at every start, that the sandbox never
 * uses (its refusals are its own words; zod's default locale is English).
 */
const zodEnglishOnly = (root: string): Plugin => ({
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js'",
      resolveDir: join(root, 'node_modules', 'zod', 'v4', 'locales'),
    }))
  },
})

/**
 * find-my-way compiles a small function with `new Function` for each static node of each method's
 * tree (its prefix matcher) and for each route (its params object, its constraints matcher): with
 * ≈ 640 method routes (450 of them derived 405s: every path is in most of the 6 method trees)
 * that is thousands of compilations at every start, 15–20 % of registering the routes
 * (docs/performance.md, "Fast start"). Most have the same source as one made before (the same
 * path fragment in another method's tree, the same parameter names): one function per source,
 * kept, serves them all. Each is pure (its arguments, `this` and constants only), so sharing it
 * changes nothing it answers; the build fails if find-my-way's code no longer reads as expected.
 */
const findMyWayFunctionsOnce = (): Plugin => ({
  name: 'find-my-way-functions-once',
  setup(b) {
    b.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/](node|handler-storage)\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8')
      const calls = source.split('new Function(').length - 1
      const expected = path.endsWith('node.js') ? 1 : 2
      if (calls !== expected)
        throw new Error(`find-my-way's ${path}: ${calls} new Function( where ${expected} were expected`)
      const once = [
        'const compiledOnce = new Map()',
        'function functionOnce(...args) {',
        "  const source = args.join('\\0')",
        '  let fn = compiledOnce.get(source)',
        '  if (fn === undefined) compiledOnce.set(source, (fn = new Function(...args)))',
        '  return fn',
        '}',
      ].join('\n')
      let contents = source.replaceAll('new Function(', 'functionOnce(')
      if (path.endsWith('node.js') && !process.env.NOLAZY) contents = prefixMatchersOnFirstUse(contents, path)
      return { contents: `${contents}\n${once}\n`, loader: 'js' }
    })
  },
})

/**
 * A static node's prefix matcher compiled at its first lookup, not when the node is made: most of
 * the ≈ 3 000 static nodes the routes make (the derived 405s put every path in most of the 6 method
 * trees) are never looked up in a process's life, and making their matchers (a source text each,
 * then a function) was ≈ 4 % of the start (docs/performance.md, "Issue 32, point 1, round 3"). The
 * node's `matchPrefix` is a stub that compiles the matcher of the node's prefix then (after any
 * split, which changes the prefix), keeps it in place of itself, and answers with it: the same
 * matcher, the same answers, one compilation later. The build fails if the code no longer reads as
 * expected.
 */
function prefixMatchersOnFirstUse(source: string, path: string): string {
  const rewrites: Array<[string, string]> = [
    [
      'this.matchPrefix = kind === NODE_TYPES.STATIC ? compilePrefixMatch(prefix) : null',
      'this.matchPrefix = kind === NODE_TYPES.STATIC ? matchPrefixOnFirstUse : null',
    ],
    ['this.matchPrefix = compilePrefixMatch(childPrefix)', 'this.matchPrefix = matchPrefixOnFirstUse'],
  ]
  let out = source
  for (const [from, to] of rewrites) {
    if (out.split(from).length !== 2) throw new Error(`find-my-way's ${path}: expected once: ${from}`)
    out = out.replace(from, to)
  }
  if (out.split('.matchPrefix(').length !== 2)
    throw new Error(`find-my-way's ${path}: matchPrefix is called where it was not expected`)
  return `${out}
function matchPrefixOnFirstUse(path, i) {
  this.matchPrefix = compilePrefixMatch(this.prefix)
  return this.matchPrefix(path, i)
}
`
}

/**
 * esbuild drops an import of a Node module that names nothing (`import 'node:tls'`): it takes
 * Node's modules to have no side effects. src/process/builtins.ts imports them for the side effect
 * of loading them before V8's flags change (its comment says why): those imports are kept.
 */
const builtinsLoadedFirst = (): Plugin => ({
  name: 'builtins-loaded-first',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, ({ path, importer }) =>
      /[\\/]src[\\/]process[\\/]builtins\.ts$/.test(importer)
        ? { path, external: true, sideEffects: true }
        : undefined,
    )
  },
})

/**
 * Fastify's default schema compilers (ajv, fast-json-stringify: 500 KiB) are never loaded from the
 * bundle: Fastify requires them only when it is given no compilers, and http/lazy-compilers.ts
 * always gives its own, which load them from node_modules on first use.
 */
const NEVER_FROM_THE_BUNDLE = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']

/** What every bundle of the server shares: Node, ES2023, names kept, the packages left out. */
const common = (root: string): BuildOptions => ({
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', ...NEVER_FROM_THE_BUNDLE],
  // Less to parse at every start (2.8 → 1.2 MB); names are kept, so stack traces still read.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
})

/**
 * The server as the process runs it: `<outdir>/server.js`, the entry (an ES module: node's modules
 * and V8's flags first, src/server.ts), and `<outdir>/sandbox-<digest>.cjs`, the rest (src/process/run.ts
 * and all it imports, the MCP server's code included) as the body of one CommonJS function, which
 * the entry compiles with a V8 code cache (src/process/script-bundle.ts). The digest (of the
 * script's text) names the file, so a cache is never read for another build's code. `entryPoints`:
 * other modules of the checkout, each an ES module with its imports split into `chunks/` (what
 * bench/start-stages.ts times module by module).
 */
export async function bundleServer(
  root: string,
  outdir: string,
  entryPoints?: Record<string, string>,
): Promise<Metafile> {
  if (entryPoints)
    return (await bundleModules(root, outdir, entryPoints)).metafile ?? { inputs: {}, outputs: {} }
  const script = await build({
    ...common(root),
    entryPoints: ['src/process/run.ts'],
    format: 'cjs',
    write: false,
    outdir,
    plugins: [zodEnglishOnly(root), findMyWayFunctionsOnce()],
    // The script's function receives the URL of its file (script-bundle.ts), as import.meta.url.
    define: { 'import.meta.url': '__bundleUrl' },
  })
  const [file] = script.outputFiles
  if (!file || script.outputFiles.length !== 1) throw new Error('the sandbox script is one file')
  // ASCII only: node reads an ASCII file into a string without decoding it, and V8 keeps it at one
  // byte a character; one other character anywhere (a regular expression's ￥) made every start
  // decode the 2 MB into a two-byte string, ≈ 40 ms of CPU (esbuild escapes strings, not regexes).
  const other = file.contents.findIndex(byte => byte > 0x7f)
  if (other >= 0)
    throw new Error(
      `the sandbox script is not ASCII: ${Buffer.from(file.contents.subarray(other - 60, other + 20))}`,
    )
  const name = `sandbox-${createHash('sha256').update(file.contents).digest('hex').slice(0, 16)}.cjs`
  mkdirSync(outdir, { recursive: true })
  writeFileSync(join(outdir, name), file.contents)
  const entry = await bundleModules(
    root,
    outdir,
    { server: 'src/server.ts' },
    { SANDBOX_SCRIPT: JSON.stringify(name) },
  )
  if (
    Object.keys(entry.metafile?.outputs ?? {}).length !== 1 ||
    /\bimport\(/.test(readFileSync(join(outdir, 'server.js'), 'utf8'))
  )
    throw new Error('dist/server.js imports the sandbox as a module: SANDBOX_SCRIPT was not set')
  return {
    inputs: { ...script.metafile?.inputs, ...entry.metafile?.inputs },
    outputs: { ...script.metafile?.outputs, ...entry.metafile?.outputs },
  }
}

/** ES modules, their shared code and what only `import()` reaches split into `chunks/`. */
function bundleModules(
  root: string,
  outdir: string,
  entryPoints: Record<string, string>,
  define: Record<string, string> = {},
) {
  return build({
    ...common(root),
    entryPoints,
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    define,
    plugins: [zodEnglishOnly(root), findMyWayFunctionsOnce(), builtinsLoadedFirst()],
    // The bundled CommonJS packages call require(): an ES module has none of its own.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  })
}

/** The files of the docs page (src/across/docs.ts), with their licence: what the package serves. */
export const SWAGGER_UI_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
  'LICENSE',
  'NOTICE',
  'swagger-ui-bundle.js.LICENSE.txt',
] as const

/**
 * Swagger UI's files copied from the swagger-ui-dist dev dependency into `<outdir>/swagger-ui/`.
 * The package ships them, not the dependency: installing swagger-ui-dist also installs and runs
 * @scarf/scarf, whose install script reports the install to a third party (docs/fidelity.md).
 */
export function copySwaggerUi(root: string, outdir: string): void {
  const from = dirname(createRequire(join(root, 'package.json')).resolve('swagger-ui-dist/package.json'))
  const to = join(outdir, 'swagger-ui')
  mkdirSync(to, { recursive: true })
  for (const file of SWAGGER_UI_FILES) copyFileSync(join(from, file), join(to, file))
}

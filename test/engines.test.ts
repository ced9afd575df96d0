import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

// The Node.js majors the package supports are the ones CI runs (.ci/run, MAJORS), and package.json
// "engines" claims them. Every package a user's `npm install` gets — the package's dependencies,
// resolved through the lockfile as npm places them — must accept each of those majors in its own
// "engines", or installing on that major warns (EBADENGINE: issue 27). The install itself, on the
// Node.js that runs it, is test/package/install.test.ts.

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
const manifest = JSON.parse(read('package.json')) as {
  engines: { node: string }
  dependencies: Record<string, string>
}

interface Locked {
  version?: string
  engines?: { node?: string } | string[]
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, Locked> }

/** Where npm placed `name` for the package at `from`: its own node_modules, else a parent's. */
function resolve(name: string, from: string): string {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const path = `${dir ? `${dir}/` : ''}node_modules/${name}`
    if (lock.packages[path]) return path
    if (!dir) throw new Error(`${name} (needed by ${from || 'the package'}) is not in package-lock.json`)
  }
}

/** Every package a user's install gets, by its path in the lockfile. */
function installed(): Map<string, Locked> {
  const found = new Map<string, Locked>()
  const visit = (deps: Record<string, string> | undefined, from: string) => {
    for (const name of Object.keys(deps ?? {})) {
      const path = resolve(name, from)
      if (found.has(path)) continue
      const pkg = lock.packages[path]!
      found.set(path, pkg)
      visit({ ...pkg.dependencies, ...pkg.optionalDependencies }, path)
    }
  }
  visit(manifest.dependencies, '')
  return found
}

const majors = [.../^MAJORS=\(([\d ]+)\)$/m.exec(read('.ci/run'))![1]!.split(' ').map(Number)].sort()

describe('the supported Node.js majors', () => {
  it('are the ones CI runs, and package.json "engines" claims each', () => {
    expect(majors).toEqual([20, 22, 24])
    for (const major of majors)
      expect(semver.satisfies(`${major}.0.0`, manifest.engines.node), `${major}`).toBe(true)
  })

  it('are accepted by every package a user installs', () => {
    const packages = installed()
    expect(packages.size).toBeGreaterThan(50)
    expect([...packages.keys()]).toContain('node_modules/better-sqlite3')
    const refusals: string[] = []
    for (const [path, pkg] of packages) {
      const wants = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node
      if (!wants) continue
      for (const major of majors) {
        // What "engines" claims within that major, which the package's own range must hold.
        const claimed = `${manifest.engines.node} >=${major}.0.0 <${major + 1}.0.0-0`
        if (!semver.subset(claimed, wants))
          refusals.push(`${path}@${pkg.version} wants node ${wants}: not ${major}`)
      }
    }
    expect(refusals).toEqual([])
  })
})

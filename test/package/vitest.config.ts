import { defineConfig } from 'vitest/config'

// `npm run test:package`: installing the package with npm, apart from `npm test` because npm
// fetches its dependencies (test/package/install.test.ts).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/package/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // One install at a time: each is CPU-bound and both build.
    fileParallelism: false,
  },
})

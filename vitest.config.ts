import { defineConfig } from 'vitest/config'

/**
 * Test files that replace a module (vi.mock): they need a module graph of their own. Every other
 * file shares its worker's modules with the files before it (`isolate: false`): importing the app's
 * ≈ 300 modules once per worker instead of once per file halves the suite's CPU time
 * (docs/performance.md, "The test suite"). What a helper opens is closed after each test all the
 * same (test/teardown.ts).
 */
const ISOLATED = ['test/reliability/credentials.test.ts']

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Read from here, not from a project: whether the pool keeps its workers between files (it
    // still gives each project workers of its own).
    poolOptions: { forks: { isolate: false } },
    // The server's build, for the tests that start it as a process.
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          // npm run test:package: installs with npm, which fetches packages (test/package/);
          // npm run test:sdks: the toolchains of six languages (test/sdk-setup/).
          exclude: ['test/package/**', 'test/sdk-setup/**', 'node_modules/**', ...ISOLATED],
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, poolOptions: { forks: { isolate: true } } },
      },
    ],
  },
})

import { defineConfig } from 'vitest/config'

// `npm run test:sdks`: docs/sdk-setup.md's snippets, each run in its SDK's language against a
// sandbox process (test/sdk-setup/sdk-setup.test.ts). Apart from `npm test`: it needs the Debian
// toolchains of six languages and Linux namespaces, which .ci/run installs and has.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/sdk-setup/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // One language at a time: each compiles or starts a runtime, and the machine has two cores.
    fileParallelism: false,
  },
})

import { afterEach } from 'vitest'

// What the test helpers open (apps, listening sandboxes, child processes, callback receivers) is
// closed after each test. A helper module is loaded once per worker, not once per test file (the
// suite shares its modules between files: vitest.config.ts, `isolate: false`), so a hook it
// registered at its top level would hold for the first file it served only: it registers its
// clean-up here instead, and test/setup.ts runs them after every test of every file.

const cleanUps: Array<() => unknown> = []

/** Runs `fn` after each test, in every test file (registered once, when the helper loads). */
export function afterEachTest(fn: () => unknown): void {
  cleanUps.push(fn)
}

/** test/setup.ts: the one hook of each file that runs them all. */
export function useTeardown(): void {
  afterEach(async () => {
    for (const fn of cleanUps) await fn()
  })
}

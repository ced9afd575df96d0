// Run before each test file (vitest.config.ts, setupFiles): the helpers' clean-ups after each test.
import { useTeardown } from './teardown.js'

useTeardown()

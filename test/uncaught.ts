import { expect } from 'vitest'

/**
 * Runs `fn` and fails if anything went uncaught meanwhile: an 'error' event nobody listened to,
 * a rejection nobody handled. Node would have ended the process; vitest only reports it after the
 * test, so the test itself says so.
 */
export async function expectNothingUncaught<T>(fn: () => Promise<T>): Promise<T> {
  const uncaught: unknown[] = []
  const seen = (err: unknown) => uncaught.push(err)
  process.on('uncaughtException', seen)
  process.on('unhandledRejection', seen)
  try {
    const result = await fn()
    // What a request leaves behind (a stream's late 'error') surfaces on a later turn.
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(uncaught.map(String)).toEqual([])
    return result
  } finally {
    process.off('uncaughtException', seen)
    process.off('unhandledRejection', seen)
  }
}

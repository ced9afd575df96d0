import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * An app's requests wait while the app is being replaced (POST /_across/app/import writes its
 * rows a chunk at a time: across/app/transfer.ts): they go on once it is done, and see the app
 * whole, as it was before or as the document made it, never half-written. Other apps' requests
 * never wait. A hook of every surface, right after authentication (mount.ts).
 */
export function createAppGate() {
  const closed = new Map<string, Promise<void>>()
  return {
    /** Closes the app's gate; the function returned opens it again (exactly once). */
    close(appKey: string): () => void {
      let open = () => {}
      const done = new Promise<void>(resolve => {
        open = resolve
      })
      const previous = closed.get(appKey)
      closed.set(appKey, previous ? previous.then(() => done) : done)
      return () => {
        open()
        if (closed.get(appKey) === done) closed.delete(appKey)
      }
    },
    /** Whether the app's gate is closed now. */
    isClosed: (appKey: string): boolean => closed.has(appKey),
    /** Resolves once the app's gate is open (at once if it is). */
    opened: (appKey: string): Promise<void> => closed.get(appKey) ?? Promise.resolve(),
    /** A preHandler hook: a request of an app whose gate is closed waits until it opens. */
    hook(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
      const appKey = (req.tenant as { app?: { appKey: string } } | undefined)?.app?.appKey
      const waiting = appKey === undefined ? undefined : closed.get(appKey)
      if (!waiting) done()
      else waiting.then(() => done(), done)
    },
  }
}

export type AppGate = ReturnType<typeof createAppGate>

import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/engine/db.js'
import { createHealth } from '../../src/store/engine/health.js'
import { createSeqs } from '../../src/store/engine/item-seqs.js'
import { createWriter } from '../../src/store/engine/writer.js'

// A push's fan-out reads the writer's count of committed jobs between its slices to tell whether
// other tenants wrote meanwhile (push/send/delivery/slices.ts: SHARE_PAUSE): it counts every job
// of a commit, the ones that failed alone too, and only once the batch has run.

describe('the writer counts the jobs it committed', () => {
  it('every job of a batch, a refused one included, once the batch ran', async () => {
    const db = openDatabase(':memory:')
    const writer = createWriter(db, { health: createHealth(db), seqs: createSeqs(db) })
    expect(writer.committed()).toBe(0)
    const jobs = [
      writer.write(() => 1),
      writer.write(() => {
        throw new Error('refused')
      }),
      writer.write(() => 3),
    ]
    // Queued, not run yet: nothing counted.
    expect(writer.committed()).toBe(0)
    const outcomes = await Promise.allSettled(jobs)
    expect(outcomes.map(o => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(writer.committed()).toBe(3)
    await writer.write(() => 4)
    expect(writer.committed()).toBe(4)
    db.close()
  })
})

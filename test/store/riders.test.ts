import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase } from '../../src/store/engine/db.js'
import { createHealth } from '../../src/store/engine/health.js'
import { createSeqs } from '../../src/store/engine/item-seqs.js'
import { createWriter, RIDE_MS, type WalSync } from '../../src/store/engine/writer.js'

// A job that rides (the request journal's entries) never makes a commit of its own while other
// writes are coming: on a quiet writer it joins the next commit, on a busy one the first commit
// after RIDE_MS, so that one commit carries the entries of many; idle, it commits after RIDE_MS,
// and at once when a read hurries it. Only the riders' timer is faked: commits run as they do.

function writerWithLog() {
  const db = openDatabase(':memory:')
  const commits: string[][] = []
  let current: string[] = []
  // Each commit ends in one sync: what ran since the last one is that commit's batch.
  const wal: WalSync = {
    sync: done => {
      commits.push(current)
      current = []
      queueMicrotask(() => done(null))
    },
    syncNow() {},
    close() {},
  }
  const writer = createWriter(db, { health: createHealth(db), seqs: createSeqs(db), wal })
  const job = (name: string) => () => {
    current.push(name)
  }
  const batch = (n: number) => Promise.all(Array.from({ length: n }, () => writer.write(job('send'))))
  return { db, writer, commits, job, batch }
}

const turn = () => new Promise(resolve => setImmediate(resolve))

describe('riding jobs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('on a quiet writer, join the next commit, first in it', async () => {
    const { db, writer, commits, job } = writerWithLog()
    await writer.write(job('send 1'))
    const rider = writer.ride(job('entry 1'))
    await writer.write(job('send 2'))
    await rider
    expect(commits).toEqual([['send 1'], ['entry 1', 'send 2']])
    db.close()
  })

  it('on a busy writer, wait RIDE_MS, then join the next commit: never one of their own', async () => {
    const { db, writer, commits, job, batch } = writerWithLog()
    await batch(20)
    await batch(20)
    let done = false
    const rider = writer.ride(job('entries')).then(() => {
      done = true
    })
    await batch(20)
    await batch(3) // a small commit of a busy writer: still not one to join
    expect(commits.flat()).not.toContain('entries')
    vi.advanceTimersByTime(RIDE_MS)
    await turn()
    expect(done).toBe(false)
    expect(commits).toHaveLength(4)
    await batch(20)
    await rider
    expect(commits).toHaveLength(5)
    expect(commits[4]![0]).toBe('entries')
    expect(commits[4]).toHaveLength(21)
    db.close()
  })

  it('when the load ends while they wait, commit on their own after RIDE_MS more', async () => {
    const { db, writer, commits, job, batch } = writerWithLog()
    await batch(20)
    await batch(20)
    const rider = writer.ride(job('entries'))
    await batch(20)
    vi.advanceTimersByTime(RIDE_MS)
    await turn()
    expect(commits).toHaveLength(3)
    vi.advanceTimersByTime(RIDE_MS)
    await rider
    expect(commits).toEqual([...commits.slice(0, 3), ['entries']])
    db.close()
  })

  it('idle, commit on their own after RIDE_MS; hurried, at once', async () => {
    const { db, writer, commits, job } = writerWithLog()
    const first = writer.ride(job('entry 1'))
    await turn()
    expect(commits).toEqual([])
    vi.advanceTimersByTime(RIDE_MS)
    await first
    expect(commits).toEqual([['entry 1']])
    const second = writer.ride(job('entry 2'))
    writer.hurry()
    await second
    expect(commits).toEqual([['entry 1'], ['entry 2']])
    db.close()
  })
})

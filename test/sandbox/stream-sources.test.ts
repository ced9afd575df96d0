import { describe, expect, it } from 'vitest'
import { createStream, type StreamSource } from '../../src/events/stream.js'
import { ROW_EVENT_TYPES } from '../../src/store/events/log.js'

// The event stream merges what the features bring (http/feature.ts: `stream`); a row type left
// without a source, or given two, would silently drop or double events: the start refuses both.

const noEvents = { list: () => [] }
const source = (type: StreamSource['type'], seqs: number[] = []): StreamSource => ({
  type,
  list: () => seqs.map(seq => ({ seq, data: () => ({ seq, type }) })),
})

describe('the event stream', () => {
  it('refuses to start with a row type that no feature brings', () => {
    const [, ...rest] = ROW_EVENT_TYPES
    expect(() =>
      createStream(
        noEvents,
        rest.map(t => source(t)),
      ),
    ).toThrow(`no source of ${ROW_EVENT_TYPES[0]} in the event stream`)
  })

  it('refuses to start with two sources of one row type', () => {
    const all = ROW_EVENT_TYPES.map(t => source(t))
    expect(() => createStream(noEvents, [...all, source('sms.sent')])).toThrow(
      'two sources of sms.sent in the event stream',
    )
  })

  it('merges the sources newest first, and renders only the kept', () => {
    let rendered = 0
    const counted = (type: StreamSource['type'], seqs: number[]): StreamSource => ({
      type,
      // As a table reads it: past `after` when given (the merge keeps the lowest of those).
      list: (_appKey, window) =>
        seqs
          .filter(seq => window.after === undefined || seq > window.after)
          .map(seq => ({
            seq,
            data: () => {
              rendered++
              return { seq }
            },
          })),
    })
    const sources = ROW_EVENT_TYPES.map(t =>
      t === 'sms.sent' ? counted(t, [5, 3, 1]) : t === 'push.sent' ? counted(t, [4, 2]) : source(t),
    )
    const stream = createStream(noEvents, sources)
    const frames = stream.list('app', { limit: 3 })
    expect(frames.map(f => [f.seq, f.type])).toEqual([
      [5, 'sms.sent'],
      [4, 'push.sent'],
      [3, 'sms.sent'],
    ])
    expect(rendered).toBe(3)
    expect(stream.list('app', { limit: 2, after: 1 }).map(f => f.seq)).toEqual([3, 2])
  })
})

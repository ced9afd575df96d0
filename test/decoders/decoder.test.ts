import { describe, expect, it } from 'vitest'
import {
  type Answer,
  binds,
  flatError,
  nestedError,
  problems,
  rateHeaders,
  responseWrapperError,
  unknownKeys,
} from './decoder.js'

// The checkers themselves: each refuses what its decoder could not read, so a sandbox answer that
// drifted from a client's shape fails the client's file.

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  body,
  headers,
  raw: JSON.stringify(body),
})

describe('decoder checkers', () => {
  it('bind as Gson and Jackson coerce and Go does not', () => {
    expect(binds('gson', 'int', '1003')).toBe(true)
    expect(binds('jackson', 'string', 18100000000000)).toBe(true)
    expect(binds('go', 'long', '1003')).toBe(false)
    expect(binds('go', 'string', 1)).toBe(false)
    expect(binds('gson', 'int', 2 ** 31)).toBe(false)
    expect(binds('gson', 'long', '18100000000000000001')).toBe(false)
    expect(
      problems('go', { msg_id: 1, data: [{ a: 'x' }] }, { msg_id: 'string', data: [{ a: 'long' }] }),
    ).toEqual(['msg_id: 1 is not a string', 'data[0].a: "x" is not a long'])
    expect(problems('go', {}, { 'x?': 'string', y: 'string' })).toEqual(['y: absent'])
  })

  it('read the nested and the flat envelope, each refusing the other', () => {
    const nested = { error: { code: 1004, message: 'Authen failed' } }
    const flat = { code: 1004, message: 'Authen failed' }
    expect(nestedError('jackson', nested)).toEqual({ code: 1004, message: 'Authen failed' })
    expect(() => nestedError('jackson', flat)).toThrow(/error: absent/)
    expect(flatError('go', flat).code).toBe(1004)
    expect(() => flatError('go', nested)).toThrow(/code: absent/)
    expect(() => nestedError('go', { error: { code: '1004', message: 'x' } })).toThrow(/not a int/)
  })

  it("read jiguang-common's ResponseWrapper: either envelope on 4xx, nothing on 5xx", () => {
    expect(responseWrapperError(answer(400, { error: { code: 1002, message: 'm' } })).code).toBe(1002)
    expect(responseWrapperError(answer(403, { code: 50013, message: 'm' })).code).toBe(50013)
    expect(responseWrapperError(answer(400, [{ x: 1 }, { error: { code: 7, message: 'm' } }])).code).toBe(7)
    expect(responseWrapperError(answer(503, { error: { code: 1030, message: 'm' } })).code).toBe(-1)
    expect(responseWrapperError(answer(400, { msg_id: 'abc', error: { code: 1, message: 'm' } })).code).toBe(
      0,
    )
  })

  it('find the keys a strict Jackson bean does not know, and the rate headers', () => {
    expect(unknownKeys({ sendno: '0', msg_id: '1', extra: 1 }, ['sendno', 'msg_id'])).toEqual(['extra'])
    expect(
      rateHeaders(
        answer(
          429,
          {},
          { 'x-rate-limit-limit': '600', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '7' },
        ).headers,
      ),
    ).toEqual({ limit: 600, remaining: 0, reset: 7 })
    expect(rateHeaders(answer(200, {}).headers)).toBeUndefined()
  })
})

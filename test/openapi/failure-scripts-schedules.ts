import { SCHEDULE_LIMITS } from '../../src/push/schedules/rules.js'
import { HOUR, periodical, single, taskPush } from '../push/schedule-helpers.js'
import type { Script } from './failure-scripts.js'

// The Schedule API's and GET /v3/users' documented failures (src/push/schedules/input.ts,
// schedules.ts, src/push/report/users.ts), each made to happen. The test clock starts at 2026-01-01 08:00:00, Beijing time.

export const LATER = '2026-02-01 10:00:00'
/** Tuesday to Wednesday, firing on Mondays: never. */
export const NEVER = {
  start: '2026-01-06 00:00:00',
  end: '2026-01-07 00:00:00',
  time: '10:00:00',
  time_unit: 'week',
  point: ['MON'],
}

/** The trigger sections written wrong, in the order they are checked (`section.trigger.shape`). */
export const badTriggers = [
  {},
  { single: { time: '2026-2-1 10:00' } },
  {
    periodical: {
      start: LATER,
      end: '2026-03-01 10:00:00',
      time: '10:00:00',
      time_unit: 'hour',
      frequency: 1,
    },
  },
  {
    periodical: {
      start: LATER,
      end: '2026-03-01 10:00:00',
      time: '10:00:00',
      time_unit: 'day',
      frequency: 0,
    },
  },
]

/** Names that fail as `section.name` lists. */
const badNames = [{ name: 5 }, { name: 'a'.repeat(SCHEDULE_LIMITS.nameBytes + 1) }, { name: 'a b' }]

export const scheduleScripts: Record<string, Script> = {
  'POST /v3/schedules': {
    run: async t => {
      const fail = (body: unknown) => t.fail('POST', '/v3/schedules', body)
      const answers = [
        await fail([]),
        await fail(single(LATER, { cid: 'nope' })),
        await fail({ name: 'a', enabled: true, push: taskPush() }),
      ]
      for (const bad of badNames) answers.push(await fail(single(LATER, bad)))
      answers.push(await fail(single(LATER, { enabled: 'yes' })))
      answers.push(await fail(single(LATER, { enabled: false })))
      for (const trigger of badTriggers) answers.push(await fail(single(LATER, { trigger })))
      answers.push(
        await fail(single('2025-12-31 10:00:00')),
        await fail(single('2027-06-01 10:00:00')),
        await fail(periodical({ start: LATER, end: '2027-03-01 10:00:00', time: '10:00:00' })),
        await fail(periodical(NEVER)),
        await fail(single(LATER, { push: { platform: 'all' } })),
      )
      // The 100 tasks not yet over, within a rate window that lets them through.
      await t.ok('PATCH', '/_sandbox/app', { settings: { rate_limits: { schedule: 1000 } } })
      for (let i = 0; i < SCHEDULE_LIMITS.activeTasks; i++) await t.ok('POST', '/v3/schedules', single(LATER))
      answers.push(await fail(single(LATER)))
      return answers
    },
  },
  'GET /v3/schedules': { run: async t => [await t.fail('GET', '/v3/schedules?page=0')] },
  'GET /v3/schedules/{schedule_id}': {
    run: async t => [await t.fail('GET', '/v3/push/schedules/nope')],
  },
  'GET /v3/schedules/{schedule_id}/msg_ids': {
    run: async t => [await t.fail('GET', '/v3/schedules/nope/msg_ids')],
  },
  'DELETE /v3/schedules/{schedule_id}': {
    run: async t => [await t.fail('DELETE', '/v3/schedules/nope')],
  },
  'PUT /v3/schedules/{schedule_id}': {
    run: async t => {
      const create = async (body: unknown) => String((await t.ok('POST', '/v3/schedules', body)).schedule_id)
      const soon = await create(single('2026-01-01 09:00:00'))
      const one = await create(single(LATER))
      const every = await create(periodical({ start: LATER, end: '2026-03-01 10:00:00', time: '10:00:00' }))
      const put = (id: string, body: unknown) => t.fail('PUT', `/v3/schedules/${id}`, body)
      const answers = [await put('nope', { name: 'x' })]
      t.clock.advance(2 * HOUR)
      answers.push(await put(soon, { name: 'x' }), await put(one, []))
      for (const bad of badNames) answers.push(await put(one, bad))
      answers.push(await put(one, { enabled: 'yes' }))
      for (const trigger of badTriggers) answers.push(await put(one, { trigger }))
      const toPeriodical = {
        periodical: {
          start: LATER,
          end: '2026-03-01 10:00:00',
          time: '10:00:00',
          time_unit: 'day',
          frequency: 1,
        },
      }
      answers.push(
        await put(one, { trigger: toPeriodical }),
        await put(one, { trigger: { single: { time: '2025-12-31 10:00:00' } } }),
        await put(one, { trigger: { single: { time: '2027-06-01 10:00:00' } } }),
        await put(every, periodical({ start: LATER, end: '2027-03-01 10:00:00', time: '10:00:00' })),
        await put(every, periodical(NEVER)),
        await put(one, { push: { platform: 'all' } }),
        await put(one, {}),
      )
      return answers
    },
  },
  'GET /v3/users': {
    run: async t => {
      const users = (query: string) => t.fail('GET', `/v3/users?${query}`)
      return [
        await users('time_unit=WEEK&start=2026-01-01&duration=1'),
        await users('time_unit=DAY&duration=1'),
        await users('time_unit=DAY&start=2026-01&duration=1'),
        await users('time_unit=DAY&start=2026-01-01&duration=0'),
        await users('time_unit=DAY&start=2026-01-01&duration=61'),
      ]
    },
  },
}

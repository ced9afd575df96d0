import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, SETTINGS } from '../src/config.js'

describe('loadConfig', () => {
  it('reads every setting from its environment variable, with its default when unset or empty', () => {
    const defaults = loadConfig({})
    expect(defaults.port).toBe(8080)
    expect(loadConfig({ PORT: '' }).port).toBe(8080)
    expect(loadConfig({ PORT: '9090', AUTO_PROVISION: '0' })).toMatchObject({
      port: 9090,
      autoProvision: false,
    })
    expect(Object.keys(defaults).sort()).toEqual(Object.keys(SETTINGS).sort())
  })

  it('takes values given by name over the environment (the command line beats env)', () => {
    expect(loadConfig({ PORT: '9090' }, { port: '7070' }).port).toBe(7070)
    expect(() => loadConfig({}, { port: 'x' })).toThrow(/--port: /)
  })

  it('refuses, naming each variable, values Node could not use', () => {
    for (const [env, value] of [
      ['CALLBACK_TIMEOUT_MS', String(2 ** 32)],
      ['CALLBACK_TIMEOUT_MS', '0'],
      ['REQUEST_TIMEOUT_MS', String(2 ** 31)],
      ['PORT', '65536'],
      ['REVIEW_DELAY_MS', '-1'],
      ['AUTO_PROVISION', 'yes'],
      ['SMS_TIME_ZONE', 'Mars/Olympus'],
    ] as const) {
      expect(() => loadConfig({ [env]: value }), `${env}=${value}`).toThrow(ConfigError)
      expect(() => loadConfig({ [env]: value }), `${env}=${value}`).toThrow(new RegExp(`${env}: `))
    }
  })

  it('refuses, for every numeric setting, what Node could not use: negatives, fractions, timers past 2^31 - 1 ms', () => {
    const numeric = Object.values(SETTINGS).filter(
      s => s.schema.safeParse('1000').success && !s.schema.safeParse('x').success,
    )
    expect(numeric.length).toBeGreaterThan(20)
    for (const s of numeric) {
      for (const bad of ['-1', '1.5', '1e400', String(Number.MAX_SAFE_INTEGER + 2)])
        expect(s.schema.safeParse(bad).success, `${s.env}=${bad}`).toBe(false)
      // A real-time setting is a timer: setTimeout fires at once past 2^31 - 1 ms (Node warns and
      // uses 1). Clock-time ones (REVIEW_DELAY_MS…) are compared, never slept: the scheduler caps its sleeps.
      if (s.describe.startsWith('real time'))
        expect(s.schema.safeParse(String(2 ** 31)).success, s.env).toBe(false)
    }
  })

  it('names every setting once, by env and by flag', () => {
    const envs = Object.values(SETTINGS).map(s => s.env)
    const flags = Object.values(SETTINGS).map(s => s.flag)
    expect(new Set(envs).size).toBe(envs.length)
    expect(new Set(flags).size).toBe(flags.length)
    for (const f of flags) expect(f).toMatch(/^[a-z][a-z0-9-]*$/)
  })
})

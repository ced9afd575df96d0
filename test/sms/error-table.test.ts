import { describe, expect, it } from 'vitest'
import { codeRows } from './error-rows-codes.js'
import { contentRows } from './error-rows-content.js'
import { requestRows } from './error-rows-request.js'
import { ruleRows } from './error-rows-rules.js'
import { seededApp } from './support.js'

// sms-service.md §7: every code these endpoints can produce, provoked over HTTP, with the
// table's HTTP status and literal message. (50019 server error has no trigger by design; 50027–
// 50029 belong to schedules, 50042–50053 and 50101+ to templates and signatures, 50201/50202
// to the pull endpoints: each is tested with its own endpoint.)

const rows = [...requestRows, ...codeRows, ...ruleRows, ...contentRows]

describe('the JSMS error table', () => {
  it('covers every code the send, verify and account endpoints can produce', () => {
    const codes = new Set(rows.map(r => r.code))
    for (let code = 50001; code <= 50026; code++) if (code !== 50019) expect(codes).toContain(code)
    for (const code of [
      50030, 50031, 50034, 50035, 50036, 50037, 50038, 50039, 50040, 50041, 50044, 50046, 50051, 50054, 50301,
    ]) {
      expect(codes).toContain(code)
    }
  })

  it.each(rows.map(r => [r.code, r.how, r] as const))('%i: %s', async (_code, _how, row) => {
    const { app, clock } = await seededApp()
    const res = await row.provoke(app, clock)
    if (row.perRecipient) {
      expect(res.status).toBe(200)
      expect(res.body.failure_recipients).toEqual([
        expect.objectContaining({ error_code: String(row.code), error_message: row.message }),
      ])
      return
    }
    expect(res.status).toBe(row.status)
    expect(res.body.error).toEqual({ code: row.code, message: row.message })
  })
})

import { formatLocal } from '../src/time.js'
import { callJson, isMissingRoute, pool } from './http.js'
import { APPS, basic, mobiles } from './product.js'
import type { Outcome } from './push-scenarios.js'

const auth = basic(APPS.schedules.key, APPS.schedules.secret)

export interface StormFigures {
  messages: number
  fired: number
  /** Wall time of the POST /_sandbox/clock that makes them all due (it returns when they ran). */
  ms: number
}

/** `count` scheduled messages (batches of 1000) due at one clock jump. Guarded: needs the scheduler. */
export async function scheduleStorm(url: string, count: number): Promise<Outcome<StormFigures>> {
  const clock = await callJson(`${url}/_sandbox/clock`, 'GET', auth)
  if (isMissingRoute(clock)) return { skipped: 'GET /_sandbox/clock answers 404 (scheduler not merged)' }
  const now = (clock.body as { now?: number }).now
  if (typeof now !== 'number')
    return { skipped: `GET /_sandbox/clock answered ${JSON.stringify(clock.body)}` }
  const sendTime = formatLocal(now + 3600_000, 'Asia/Shanghai')
  const next = mobiles()
  const batches = Array.from({ length: Math.ceil(count / 1000) }, () => ({
    send_time: sendTime,
    temp_id: 2,
    recipients: Array.from({ length: 1000 }, () => ({
      mobile: next(),
      temp_para: { order: 'S1', days: '1' },
    })),
  }))
  let refused: string | undefined
  await pool(batches, 4, async body => {
    const a = await callJson(`${url}/v1/schedule/batch`, 'POST', auth, body)
    if (a.status !== 200) refused ??= `POST /v1/schedule/batch answered ${a.status} ${JSON.stringify(a.body)}`
  })
  if (refused) return { skipped: refused }
  const before = await industry(url)
  const started = performance.now()
  const jump = await callJson(`${url}/_sandbox/clock`, 'POST', auth, { advance_ms: 2 * 3600_000 })
  const ms = performance.now() - started
  if (jump.status !== 200)
    return { skipped: `POST /_sandbox/clock answered ${jump.status} ${JSON.stringify(jump.body)}` }
  return { ok: { messages: batches.length * 1000, fired: before - (await industry(url)), ms } }
}

async function industry(url: string): Promise<number> {
  const a = await callJson(`${url}/v1/accounts/app`, 'GET', auth)
  return (a.body as { app_industry: number }).app_industry
}

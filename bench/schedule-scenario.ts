import { formatLocal } from '../src/time.js'
import { callJson, pool } from './http.js'
import { cpuSeconds } from './processes.js'
import { APPS, basic, mobiles } from './product.js'

const auth = basic(APPS.schedules.key, APPS.schedules.secret)

export interface StormFigures {
  messages: number
  fired: number
  /** Wall time of the POST /_sandbox/clock that makes them all due (it returns when they ran). */
  ms: number
  /** The server's CPU time meanwhile. */
  cpuMs: number
}

/** `count` scheduled messages (batches of 1000) due at one clock jump. */
export async function scheduleStorm(url: string, count: number, pid: number): Promise<StormFigures> {
  const clock = await callJson(`${url}/_sandbox/clock`, 'GET', auth)
  const now = (clock.body as { now?: number }).now
  if (typeof now !== 'number') throw new Error(`GET /_sandbox/clock answered ${JSON.stringify(clock.body)}`)
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
  if (refused) throw new Error(refused)
  const before = await industry(url)
  const cpu = cpuSeconds(pid)
  const started = performance.now()
  const jump = await callJson(`${url}/_sandbox/clock`, 'POST', auth, { advance_ms: 2 * 3600_000 })
  const ms = performance.now() - started
  const cpuMs = (cpuSeconds(pid) - cpu) * 1000
  if (jump.status !== 200)
    throw new Error(`POST /_sandbox/clock answered ${jump.status} ${JSON.stringify(jump.body)}`)
  return { messages: batches.length * 1000, fired: before - (await industry(url)), ms, cpuMs }
}

async function industry(url: string): Promise<number> {
  const a = await callJson(`${url}/v1/accounts/app`, 'GET', auth)
  return (a.body as { app_industry: number }).app_industry
}

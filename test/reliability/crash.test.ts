import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { formatLocal } from '../../src/time.js'
import { http, mobiles, newTenant, SCALE, type Tenant } from './http.js'
import { type ServerProcess, startServer, tempDatabase } from './server-process.js'

// Kill -9 under a steady load of sends, restart on the same file: every send answered 200 is
// there with its content, and nothing is half-written (every unit charged belongs to a stored
// message, every stored verification code message has its code row).

interface Acked {
  msgId: string
  mobile: string
  kind: 'template' | 'code'
  order?: string
}

async function loadUntilKilled(server: ServerProcess, tenant: Tenant, maxSends: number): Promise<Acked[]> {
  const acked: Acked[] = []
  const next = mobiles()
  let sent = 0
  let dead = false
  const worker = async () => {
    while (!dead && sent < maxSends) {
      const n = sent++
      const mobile = next()
      const order = `O${n}`
      const isCode = n % 3 === 0
      try {
        const a = isCode
          ? await http(`${server.url}/v1/codes`, 'POST', tenant.auth, { mobile, temp_id: 1 })
          : await http(`${server.url}/v1/messages`, 'POST', tenant.auth, {
              mobile,
              temp_id: 2,
              temp_para: { order, days: '1' },
            })
        if (a.status !== 200) throw new Error(`send answered ${a.status} ${JSON.stringify(a.body)}`)
        acked.push({ msgId: a.body.msg_id, mobile, kind: isCode ? 'code' : 'template', order })
      } catch (err) {
        if (!dead) throw err
      }
    }
  }
  const workers = Array.from({ length: 8 }, worker)
  // A random moment once the load is steady.
  while (acked.length < 20) await sleep(5)
  await sleep(Math.random() * 300)
  dead = true
  await server.kill('SIGKILL')
  await Promise.all(workers)
  return acked
}

async function verify(server: ServerProcess, tenant: Tenant, acked: Acked[]): Promise<void> {
  for (const a of acked) {
    const found = await http(`${server.url}/_sandbox/sms/messages?msg_id=${a.msgId}`, 'GET', tenant.auth)
    expect(found.body.messages, `msg_id ${a.msgId} answered 200 but is gone`).toHaveLength(1)
    const m = found.body.messages[0]
    expect(m.mobile).toBe(a.mobile)
    if (a.kind === 'template') expect(m.content).toBe(`【极光沙箱】您的订单${a.order}已发货，预计1天内送达。`)
    else expect(m.content).toMatch(/^【极光沙箱】您的验证码为\d{6}，/)
  }
  // Nothing half-written: what was charged is exactly what was stored, codes come with their row.
  const all = await http(`${server.url}/_sandbox/sms/messages?limit=1000`, 'GET', tenant.auth)
  const stored: Array<{ msg_id: string; mobile: string; kind: string; units: number }> = all.body.messages
  expect(stored.length).toBeLessThan(1000)
  const account = await http(`${server.url}/v1/accounts/app`, 'GET', tenant.auth)
  const charged = 10_000 - account.body.app_industry
  expect(charged).toBe(stored.reduce((n, m) => n + m.units, 0))
  for (const m of stored.filter(m => m.kind === 'code')) {
    const code = await http(`${server.url}/_sandbox/sms/codes/latest?mobile=${m.mobile}`, 'GET', tenant.auth)
    expect(code.body.msg_id).toBe(m.msg_id)
  }
  expect(new Set(stored.map(m => m.msg_id))).toEqual(expect.objectContaining({ size: stored.length }))
}

describe('SIGKILL under load', () => {
  it(`loses no acknowledged send and half-writes nothing (${2 * SCALE} kills)`, {
    timeout: 60_000 * SCALE,
  }, async () => {
    const database = tempDatabase()
    // A tenant per round keeps each one's listing under the inspection limit (1000).
    const rounds: Array<{ tenant: Tenant; acked: Acked[] }> = []
    for (let round = 0; round < 2 * SCALE; round++) {
      const tenant = newTenant('crash')
      const server = await startServer({ DB_PATH: database })
      const ready = await http(`${server.url}/v1/accounts/app`, 'GET', tenant.auth)
      expect(ready.status).toBe(200)
      rounds.push({ tenant, acked: await loadUntilKilled(server, tenant, 450) })
    }
    const server = await startServer({ DB_PATH: database })
    for (const { tenant, acked } of rounds) await verify(server, tenant, acked)
    await server.kill('SIGTERM')
  })

  it('fires each scheduled message exactly once when killed mid-firing', {
    timeout: 60_000 * SCALE,
  }, async () => {
    const database = tempDatabase()
    const tenant = newTenant('sched')
    let server = await startServer({ DB_PATH: database })
    const clock = await http(`${server.url}/_sandbox/clock`, 'GET', tenant.auth)
    expect(clock.status).toBe(200)
    const sendTime = formatLocal(clock.body.now + 3600_000, 'Asia/Shanghai')
    const next = mobiles()
    const schedules: Array<{ scheduleId: string; mobile: string }> = []
    for (let i = 0; i < 50 * SCALE; i++) {
      const mobile = next()
      const body = { send_time: sendTime, temp_id: 2, mobile, temp_para: { order: `S${i}`, days: '1' } }
      const a = await http(`${server.url}/v1/schedule`, 'POST', tenant.auth, body)
      expect(a.status, JSON.stringify(a.body)).toBe(200)
      schedules.push({ scheduleId: String(a.body.schedule_id), mobile })
    }
    // The jump makes them all due; the kill lands somewhere in the firing.
    const jump = http(`${server.url}/_sandbox/clock`, 'POST', tenant.auth, {
      advance_ms: 2 * 3600_000,
    }).catch(() => {})
    await sleep(Math.random() * 50)
    await server.kill('SIGKILL')
    await jump
    server = await startServer({ DB_PATH: database })
    // Whatever was overdue at the restart, or not yet due if the jump itself was lost, fires now.
    const again = await http(`${server.url}/_sandbox/clock`, 'POST', tenant.auth, {
      advance_ms: 2 * 3600_000,
    })
    expect(again.status).toBe(200)
    for (const s of schedules) {
      const sent = await http(`${server.url}/_sandbox/sms/messages?mobile=${s.mobile}`, 'GET', tenant.auth)
      expect(sent.body.messages, `schedule ${s.scheduleId}`).toHaveLength(1)
      expect(String(sent.body.messages[0].schedule_id)).toBe(s.scheduleId)
    }
    await server.kill('SIGTERM')
  })
})

import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { basic, newKey } from '../helpers.js'
import { SCALE } from './http.js'
import { ATTACKER, agentFrom, getStatus, pool, VICTIM, victim } from './load.js'
import { startServer, tempDatabase } from './server-process.js'

// Issue 19, class 2: a tenant with a large device registry pushing back to back. 50 000 devices;
// each tag push held the event loop ~1 s, a file push 1.5 s, and another tenant's p50 went from
// 1 ms to 1 152 ms. Here, on the real process: pushes to D devices (tag, broadcast, tag_and, a file
// of every registration_id, group of them back to back), each written in slices
// (src/push/send/delivery/slices.ts); the victim's p99 stays within 100 ms of its own, health answers;
// then SIGKILL in the middle of a push, and after the restart every push answered 200 gets all D
// deliveries (answered before its slices, finished by the restarted due-work loop), and the push
// that was cut is finished too (its plan was durable), none half-made.

const DEVICES = 10_000 * SCALE

type Agent = ReturnType<typeof agentFrom>

async function json(agent: Agent, url: string, auth: string, method = 'GET', body?: unknown) {
  const res = await request(url, {
    dispatcher: agent,
    method: method as 'GET',
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined }
}

/** How many devices a push reached (every device here is online: each delivery is listed). */
async function reached(agent: Agent, base: string, auth: string, msgId: string): Promise<number> {
  let n = 0
  let after = 0
  for (;;) {
    const page = await json(
      agent,
      `${base}/_sandbox/push/messages?msg_id=${msgId}&limit=1000&after=${after}`,
      auth,
    )
    const items: Array<{ seq: number }> = page.body.messages
    if (items.length === 0) return n
    n += items.length
    after = items[0]!.seq
  }
}

describe('a tenant pushing to a large registry', () => {
  it(`holds nobody up, and loses no acknowledged delivery to SIGKILL (${DEVICES} devices)`, {
    timeout: 120_000 + 20 * DEVICES,
  }, async () => {
    const db = tempDatabase()
    let server = await startServer({ DB_PATH: db })
    const attacker = agentFrom(ATTACKER, 32)
    const auth = basic(newKey('f'), newKey('s'))
    const rids: string[] = []
    await pool(DEVICES, 32, async () => {
      const res = await json(attacker, `${server.url}/_sandbox/push/devices`, auth, 'POST', {
        platform: 'winphone',
        online: true,
        tags: ['fan', 'out'],
      })
      expect(res.status).toBe(200)
      rids.push(res.body.registration_id)
    })
    const upload = await request(`${server.url}/v3/files/registration_id`, {
      dispatcher: attacker,
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'multipart/form-data; boundary=X' },
      body: `--X\r\nContent-Disposition: form-data; name="filename"; filename="ids.txt"\r\nContent-Type: text/plain\r\n\r\n${rids.join('\n')}\r\n--X--\r\n`,
    })
    const fileId = (JSON.parse(await upload.body.text()) as { file_id: string }).file_id

    const own = agentFrom(VICTIM, 2)
    const ownAuth = basic(newKey('v'), newKey('s'))
    const app = () => getStatus(own, `${server.url}/_sandbox/app`, ownAuth)
    const baseline = victim(app)
    while (baseline.durations.length < 200) await new Promise(resolve => setImmediate(resolve))
    const before = await baseline.stop()

    // Only these devices are winphone: each push reaches exactly them.
    const push = (audience: unknown, path = '/v3/push') =>
      json(attacker, `${server.url}${path}`, auth, 'POST', {
        platform: ['winphone'],
        audience,
        message: { msg_content: 'fan-out' },
      })
    const during = victim(app)
    const acked: string[] = []
    for (const [audience, path] of [
      [{ tag: ['fan'] }, '/v3/push'],
      ['all', '/v3/push'],
      [{ tag_and: ['fan', 'out'] }, '/v3/push'],
      [{ file: { file_id: fileId } }, '/v3/push/file'],
    ] as const) {
      const res = await push(audience, path)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      acked.push(res.body.msg_id)
    }
    const health = await getStatus(agentFrom('127.0.0.1', 1), `${server.url}/_sandbox/health`)
    const under = await during.stop()
    const summary = JSON.stringify({ before, under })
    console.log(summary)
    expect(health).toBe(200)
    expect(during.statuses.every(s => s === 200)).toBe(true)
    // The acceptance bound at the default size; larger sizes are measured (docs/reliability.md).
    if (SCALE === 1) expect(under.p99, summary).toBeLessThan(before.p99 + 100)

    // SIGKILL in the middle of the next pushes, once one of them is answered. A push is answered
    // before its slices (issue 32, point 4): the kill also cuts the fan-outs of pushes answered.
    const more = (async () => {
      while (acked.length < 8) {
        const res = await push({ tag: ['out'] }).catch(() => undefined)
        if (res?.status !== 200) return
        acked.push(res.body.msg_id)
      }
    })()
    while (acked.length < 5) await new Promise(resolve => setTimeout(resolve, 5))
    await new Promise(resolve => setTimeout(resolve, Math.random() * 150))
    await server.kill('SIGKILL')
    await more
    server = await startServer({ DB_PATH: db })
    const again = agentFrom(ATTACKER, 4)
    // Every push answered 200 reaches all D devices once the restarted loop has written its slices.
    for (const msgId of acked)
      await expect
        .poll(() => reached(again, server.url, auth, msgId), { timeout: 60_000, interval: 200 })
        .toBe(DEVICES)
    // The push the kill cut, if it had been accepted: finished after the restart (all or nothing).
    await expect
      .poll(
        async () => {
          const { rows } = (await json(again, `${server.url}/_sandbox/app/storage`, auth)).body
          return rows.push_deliveries % DEVICES
        },
        { timeout: 30_000 },
      )
      .toBe(0)
    await Promise.all([attacker.close(), own.close(), again.close()])
  })
})

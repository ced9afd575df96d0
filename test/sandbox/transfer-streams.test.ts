import { request as httpRequest, type IncomingMessage } from 'node:http'
import { setImmediate as turn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, newKey } from '../helpers.js'
import { listening } from './real-port.js'

// Issue 33, point 3: one export or import must not stall everyone. Over a real port: an export
// whose client reads slowly is still streaming (it holds one of the transfers, MAX_TRANSFERS…)
// while another tenant is served; an import still being received holds its own app's requests
// (they wait at its gate) and no one else's. No timing is measured: only what is answered, and
// what is still held, at each step.

const DEVICES = 20_000

const tenant = () => {
  const appKey = newKey('t')
  return { appKey, authorization: basic(appKey, newKey('s')) }
}

/** The attacker's app at a size whose document is megabytes: devices written straight in. */
function fill(app: SandboxApp, appKey: string, now: number): void {
  const insert = app.store.db.prepare(
    `INSERT INTO push_devices (app_key, registration_id, platform, online, created_at) VALUES (?, ?, 'android', 0, ?)`,
  )
  app.store.db.transaction(() => {
    for (let i = 0; i < DEVICES; i++) insert.run(appKey, `filler${String(i).padStart(8, '0')}`, now)
  })()
}

/** A GET over node:http whose body is not read until told. */
function slowGet(url: string, authorization: string) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization } }, res => {
      res.pause()
      resolve(res)
    })
    req.on('error', reject)
    req.end()
  })
}

const readAll = async (res: IncomingMessage) => {
  const chunks: Buffer[] = []
  res.resume()
  for await (const c of res) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Until `done()` holds, letting the sandbox run (no time is waited for). */
async function until(done: () => boolean) {
  while (!done()) await turn()
}

describe('an export read slowly', () => {
  it('is still streaming while another tenant is served; a client has its share of transfers', async () => {
    const s = await listening({}, { maxTransfersPerClient: 1 })
    const [attacker, victim] = [tenant(), tenant()]
    const now = (await s.http('GET', '/_sandbox/clock', undefined, { authorization: attacker.authorization }))
      .body.now as number
    fill(s.app, attacker.appKey, now)
    const exporting = await slowGet(`${s.url}/_sandbox/app/export`, attacker.authorization)
    expect(exporting.statusCode).toBe(200)
    // The client reads nothing: the export waits for it, a transfer held.
    expect(s.app.held.transfers.held).toBe(1)
    const served = await s.http(
      'POST',
      '/v1/codes',
      { mobile: '13800138000', temp_id: 1 },
      {
        authorization: victim.authorization,
      },
    )
    expect(served.status).toBe(200)
    expect((await s.http('GET', '/_sandbox/health')).status).toBe(200)
    // A second export from the same client, while the first streams: over its share.
    const second = await s.http('GET', '/_sandbox/app/export', undefined, {
      authorization: victim.authorization,
    })
    expect(second.status).toBe(429)
    expect(second.body.error.code).toBe(90060)
    expect(second.body.error.message).toMatch(/MAX_TRANSFERS_PER_CLIENT/)
    expect(s.app.held.transfers.held).toBe(1)
    const doc = JSON.parse(await readAll(exporting))
    const fillers = (doc.tables.push_devices as Array<{ registration_id: string }>).filter(d =>
      d.registration_id.startsWith('filler'),
    )
    expect(fillers).toHaveLength(DEVICES)
    await until(() => s.app.held.transfers.held === 0)
  })
})

describe('an import still being received', () => {
  it('holds its own app’s requests until it is done, and no other app’s', async () => {
    const s = await listening()
    const [source, importer, victim] = [tenant(), tenant(), tenant()]
    await s.http(
      'POST',
      '/v1/codes',
      { mobile: '13800138000', temp_id: 1 },
      { authorization: source.authorization },
    )
    const text = JSON.stringify(
      (await s.http('GET', '/_sandbox/app/export', undefined, { authorization: source.authorization })).body,
    )
    await s.http('DELETE', '/_sandbox/app', undefined, { authorization: source.authorization })
    await s.http('GET', '/_sandbox/clock', undefined, { authorization: importer.authorization })
    const body = Buffer.from(text)
    let answer: { status: number; body: string } | undefined
    const req = httpRequest(`${s.url}/_sandbox/app/import`, {
      method: 'POST',
      headers: {
        authorization: importer.authorization,
        'content-type': 'application/json',
        'content-length': body.length,
      },
    })
    const answered = new Promise<void>((resolve, reject) => {
      req.on('response', async res => {
        answer = { status: res.statusCode ?? 0, body: await readAll(res) }
        resolve()
      })
      req.on('error', reject)
    })
    req.write(body.subarray(0, body.length >> 1))
    // The import has begun (it holds its transfer, and has closed its app's gate).
    await until(() => s.app.held.transfers.held === 1)
    let own: number | undefined
    const ownRequest = s
      .http('GET', '/_sandbox/clock', undefined, { authorization: importer.authorization })
      .then(r => {
        own = r.status
      })
    const served = await s.http('GET', '/v1/accounts/app', undefined, { authorization: victim.authorization })
    expect(served.status).toBe(200)
    expect(own).toBeUndefined()
    req.end(body.subarray(body.length >> 1))
    await answered
    expect(answer?.status, answer?.body).toBe(200)
    await ownRequest
    expect(own).toBe(200)
  })
})

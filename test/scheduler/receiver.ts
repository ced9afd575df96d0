import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEachTest } from '../teardown.js'

export interface Received {
  contentType: string | undefined
  form: Record<string, string>
  /** The body as sent, and the Authorization header (push callbacks: JSON with Basic credentials). */
  text: string
  authorization: string | undefined
}

type Mode = 'ok' | 'fail' | 'hold'
/** How the receiver answers the vendor's URL check (a GET with `echostr`, jsms-api.md §6). */
type CheckMode = 'echo' | 'wrong' | 'fail' | 'hold'

const servers: Array<{ close(): Promise<void> }> = []
afterEachTest(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()))
})

/**
 * A callback receiver on a real loopback port: records every POST and every URL check (GET),
 * answers as told.
 */
export async function startReceiver() {
  const received: Received[] = []
  const checks: string[] = []
  const held: ServerResponse[] = []
  let mode: Mode = 'ok'
  let checkMode: CheckMode = 'echo'
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      const echostr = new URL(req.url ?? '/', 'http://x').searchParams.get('echostr') ?? ''
      checks.push(echostr)
      if (checkMode === 'hold') held.push(res)
      else if (checkMode === 'fail') res.writeHead(404).end('not here')
      else res.writeHead(200).end(checkMode === 'echo' ? echostr : 'success')
      return
    }
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const form = Object.fromEntries(new URLSearchParams(text))
      received.push({
        contentType: req.headers['content-type'],
        form,
        text,
        authorization: req.headers.authorization,
      })
      if (mode === 'hold') held.push(res)
      else res.writeHead(mode === 'ok' ? 200 : 500).end(mode === 'ok' ? 'ok' : 'boom')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsms/callback`
  const receiver = {
    url,
    received,
    checks,
    answer(next: Mode) {
      mode = next
    },
    answerChecks(next: CheckMode) {
      checkMode = next
    },
    /** Answers the requests held so far. */
    release() {
      for (const res of held.splice(0)) res.writeHead(200).end('ok')
    },
    close: () =>
      new Promise<void>(resolve => {
        for (const res of held.splice(0)) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  servers.push(receiver)
  return receiver
}

export const CALLBACK_APP = { appKey: 'hookapp00000000000000001', secret: 'hookappsecret00000000001' }

/** A seed file whose one app sends its callbacks to `url`. */
export function callbackSeed(url: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'jsms-hook-')), 'seed.json')
  writeFileSync(
    file,
    JSON.stringify({
      apps: [{ app_key: CALLBACK_APP.appKey, master_secret: CALLBACK_APP.secret, callback_url: url }],
    }),
  )
  return file
}

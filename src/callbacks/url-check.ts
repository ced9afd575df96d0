import { randomBytes } from 'node:crypto'
import type * as Undici from 'undici'
import type { Dispatcher } from 'undici'
import { lazy } from '../lazy.js'

const undici = lazy<typeof Undici>('undici')

/** Enough of the answer to compare with the echostr and to show what came instead. */
const MAX_ANSWER_BYTES = 1024

/**
 * The vendor's check of a callback URL before it is used (jsms-api.md §6): a GET with `echostr`,
 * 8 random characters, which the receiver must answer with a 2xx whose body is that text
 * (surrounding white space forgiven). Returns why the URL fails, or undefined when it passes.
 * Real time: at most `timeoutMs` (CALLBACK_TIMEOUT_MS) to answer.
 */
export async function checkCallbackUrl(
  url: string,
  { dispatcher, timeoutMs }: { dispatcher: Dispatcher; timeoutMs: number },
): Promise<string | undefined> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return 'it is not a URL'
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return 'it must be an http:// or https:// URL'
  const echostr = randomBytes(4).toString('hex')
  target.searchParams.set('echostr', echostr)
  try {
    const res = await undici().request(target, {
      method: 'GET',
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const answer = await readAtMost(res.body, MAX_ANSWER_BYTES)
    if (res.statusCode < 200 || res.statusCode > 299)
      return `GET ${target} answered HTTP ${res.statusCode}, not 200 with the echostr`
    if (answer.trim() !== echostr)
      return `GET ${target} must answer the echostr "${echostr}" as its body; it answered ${JSON.stringify(answer.slice(0, 100))}`
    return undefined
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string }
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || /Timeout/.test(e.code ?? ''))
      return `GET ${target} got no answer within ${timeoutMs} ms (CALLBACK_TIMEOUT_MS)`
    return `GET ${target} failed: ${[e.code, e.message].filter(Boolean).join(': ')}`
  }
}

async function readAtMost(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk as Buffer)
    size += (chunk as Buffer).length
    if (size >= limit) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, limit)
}

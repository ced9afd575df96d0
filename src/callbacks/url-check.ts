import { randomBytes } from 'node:crypto'
import type * as Undici from 'undici'
import type { Dispatcher } from 'undici'
import { lazy } from '../lazy.js'
import { refusedTarget } from './targets.js'

const undici = lazy<typeof Undici>('undici')

/** Enough of the answer to compare with the echostr (white space around it forgiven). */
const MAX_ANSWER_BYTES = 1024

/**
 * The vendor's check of a callback URL before it is used (jsms-api.md §6): a GET with `echostr`,
 * 8 random characters, which the receiver must answer with a 2xx whose body is that text
 * (surrounding white space forgiven). Returns why the URL fails, or undefined when it passes.
 * Real time: at most `timeoutMs` (CALLBACK_TIMEOUT_MS) to answer.
 *
 * The reason says whether the echo matched, the status and why no answer came, never what the URL
 * answered: a tenant must not read through the sandbox a page it could not read itself. Where the
 * URL may point is the courier's rule too (targets.ts): an address that is not public is refused
 * before any request unless CALLBACK_ALLOW_PRIVATE allows it; a name is checked as it is resolved
 * (the dispatcher's lookup).
 */
export async function checkCallbackUrl(
  url: string,
  {
    dispatcher,
    timeoutMs,
    allowPrivate,
  }: { dispatcher: Dispatcher; timeoutMs: number; allowPrivate: boolean },
): Promise<string | undefined> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return 'it is not a URL'
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return 'it must be an http:// or https:// URL'
  const refused = refusedTarget(target, allowPrivate)
  if (refused) return refused
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
      return `GET ${target} answered HTTP ${res.statusCode} without the echostr "${echostr}" as its body`
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

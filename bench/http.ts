import { request } from 'undici'

export interface Answer {
  status: number
  body: unknown
}

/** One JSON call with Basic credentials; the body of the answer parsed when it is JSON. */
export async function callJson(url: string, method: string, auth: string, body?: unknown): Promise<Answer> {
  const res = await request(url, {
    method: method as 'GET',
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.body.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: res.statusCode, body: parsed }
}

/** Runs `fn` over `items` with at most `concurrency` calls in flight. */
export async function pool<T>(
  items: T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

import { httpsCall } from '../tls/https-client.js'

export const AUTH = `Basic ${Buffer.from('7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1').toString('base64')}`

export interface Answer {
  status: number
  json: () => unknown
  text: string
}

export type Caller = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Answer>

/** Plain HTTP to the published port. */
export function httpCaller(base: string): Caller {
  return async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: AUTH },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
    const text = await res.text()
    return { status: res.status, text, json: () => JSON.parse(text) }
  }
}

/** HTTPS to `https://<vendor host>:<port>` resolved to 127.0.0.1, trusting only the sandbox's CA. */
export function httpsCaller(host: string, port: number, ca: string): Caller {
  return async (method, path, body) => {
    const res = await httpsCall(`https://${host}:${port}${path}`, {
      ca,
      method,
      body,
      auth: AUTH,
      agent: false,
    })
    return { status: res.status, text: res.body, json: () => JSON.parse(res.body) }
  }
}

/** POST /v1/codes, read the code the sandbox texted, POST /v1/codes/:msg_id/valid. Returns msg_id. */
export async function sendAndValidateCode(call: Caller, mobile: string): Promise<string> {
  const sent = await call('POST', '/v1/codes', { mobile, temp_id: 1 })
  if (sent.status !== 200) throw new Error(`POST /v1/codes: ${sent.status} ${sent.text}`)
  const { msg_id } = sent.json() as { msg_id: string }
  const latest = await call('GET', `/_sandbox/sms/codes/latest?mobile=${mobile}`)
  const { code } = latest.json() as { code: string }
  const valid = await call('POST', `/v1/codes/${msg_id}/valid`, { code })
  if (valid.status !== 200 || (valid.json() as { is_valid?: boolean }).is_valid !== true) {
    throw new Error(`POST /v1/codes/${msg_id}/valid: ${valid.status} ${valid.text}`)
  }
  return msg_id
}

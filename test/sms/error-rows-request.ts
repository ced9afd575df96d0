import type { SandboxApp } from '../../src/app.js'
import { basic, call } from '../helpers.js'
import { as, MOBILE } from './support.js'

// Rows of the seed's error table (sms-service.md §7) about the request itself: credentials,
// body, required fields, paths and methods. Each provokes its code over HTTP.

type Answer = Pick<Awaited<ReturnType<typeof call>>, 'status' | 'body'>

export interface Row {
  code: number
  status: number
  message: string
  /** What provokes it, for the test name. */
  how: string
  /** A batch answers 200 and reports the failure per recipient (jsms-api.md §2.5). */
  perRecipient?: boolean
  provoke(app: SandboxApp, clock: { advance(ms: number): void }): Promise<Answer>
}

const post = (app: SandboxApp, url: string, body?: unknown, headers?: Record<string, string>) =>
  call(app, 'POST', url, body, headers)

export const requestRows: Row[] = [
  {
    code: 50001,
    status: 400,
    message: 'missing auth',
    how: 'no Authorization header',
    provoke: app =>
      app
        .inject({ method: 'GET', url: '/v1/accounts/app' })
        .then(r => ({ status: r.statusCode, body: r.json() })),
  },
  {
    code: 50002,
    status: 401,
    message: 'auth failed',
    how: 'a wrong masterSecret',
    provoke: app =>
      call(app, 'GET', '/v1/accounts/app', undefined, {
        authorization: basic('7d431e42dfa6a6d693ac2d04', 'x'.repeat(24)),
      }),
  },
  {
    code: 50003,
    status: 400,
    message: 'missing body',
    how: 'an empty body',
    provoke: app => post(app, '/v1/codes', ''),
  },
  {
    code: 50004,
    status: 400,
    message: 'missing mobile',
    how: 'no mobile',
    provoke: app => post(app, '/v1/codes', { temp_id: 1 }),
  },
  {
    code: 50005,
    status: 400,
    message: 'missing temp_id',
    how: 'no temp_id',
    provoke: app => post(app, '/v1/codes', { mobile: MOBILE }),
  },
  {
    code: 50006,
    status: 403,
    message: 'invalid mobile',
    how: 'a 5-digit mobile',
    provoke: app => post(app, '/v1/codes', { mobile: '12345', temp_id: 1 }),
  },
  {
    code: 50007,
    status: 403,
    message: 'invalid body',
    how: 'malformed JSON',
    provoke: app => post(app, '/v1/codes', '{"mobile":'),
  },
  {
    code: 50008,
    status: 403,
    message: 'no sms code auth',
    how: 'an app without SMS',
    provoke: app => as('disabled')(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }),
  },
  {
    code: 50016,
    status: 404,
    message: 'api not found',
    how: 'an unknown path',
    provoke: app => call(app, 'GET', '/v1/nothing/here'),
  },
  {
    code: 50017,
    status: 415,
    message: 'media not supported',
    how: 'a form-urlencoded body',
    provoke: app =>
      post(app, '/v1/codes', 'mobile=13800138000&temp_id=1', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
  },
  {
    code: 50018,
    status: 405,
    message: 'request method not support',
    how: 'GET on /v1/codes',
    provoke: app => call(app, 'GET', '/v1/codes'),
  },
]

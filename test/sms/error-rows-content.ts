import type { SandboxApp } from '../../src/app.js'
import { call } from '../helpers.js'
import type { Row } from './error-rows-request.js'
import { as, MOBILE } from './support.js'

// Rows of the seed's error table about the app's standing, message content and voice codes.

const post = (app: SandboxApp, url: string, body?: unknown) => call(app, 'POST', url, body)

export const contentRows: Row[] = [
  {
    code: 50035,
    status: 403,
    message: 'illegal IP',
    how: 'a caller outside the IP whitelist',
    provoke: app => as('whitelisted')(app, 'GET', '/v1/accounts/app'),
  },
  {
    code: 50036,
    status: 403,
    message: 'app in black',
    how: 'a blacklisted app',
    provoke: app => as('blacklisted')(app, 'GET', '/v1/accounts/app'),
  },
  {
    code: 50037,
    status: 403,
    message: 'has black word',
    how: 'a global sensitive word',
    provoke: app =>
      post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: { order: '赌博', days: '3' } }),
  },
  {
    code: 50037,
    status: 403,
    message: 'has black word',
    how: "one of the app's own sensitive words",
    provoke: app =>
      as('words')(app, 'POST', '/v1/messages', {
        mobile: MOBILE,
        temp_id: 2,
        temp_para: { order: 'ForbiddenWord', days: '3' },
      }),
  },
  {
    code: 50038,
    status: 403,
    message: 'invalid content length',
    how: 'a text over 500 characters',
    provoke: app =>
      post(app, '/v1/messages', {
        mobile: MOBILE,
        temp_id: 2,
        temp_para: { order: 'x'.repeat(480), days: '3' },
      }),
  },
  {
    code: 50038,
    status: 403,
    message: 'invalid content length',
    how: 'a 3-digit voice code',
    provoke: app => post(app, '/v1/voice_codes', { mobile: MOBILE, code: '123' }),
  },
  {
    code: 50038,
    status: 403,
    message: 'invalid content length',
    how: 'a 9-digit voice code',
    provoke: app => post(app, '/v1/voice_codes', { mobile: MOBILE, code: '123456789' }),
  },
  {
    code: 50039,
    status: 403,
    message: 'invalid code type',
    how: 'a voice code with letters',
    provoke: app => post(app, '/v1/voice_codes', { mobile: MOBILE, code: '12ab' }),
  },
  {
    code: 50040,
    status: 403,
    message: 'invalid voice language type',
    how: 'voice_lang 3',
    provoke: app => post(app, '/v1/voice_codes', { mobile: MOBILE, voice_lang: 3 }),
  },
  {
    code: 50041,
    status: 403,
    message: 'invalid ttl value',
    how: 'a voice ttl over a day',
    provoke: app => post(app, '/v1/voice_codes', { mobile: MOBILE, ttl: 86_401 }),
  },
  {
    code: 50041,
    status: 403,
    message: 'invalid ttl value',
    how: 'a negative code ttl',
    provoke: app => post(app, '/v1/codes', { mobile: MOBILE, temp_id: 1, ttl: -5 }),
  },
  {
    code: 50044,
    status: 403,
    message: 'template parameter invalid',
    how: 'a nested parameter',
    provoke: app =>
      post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: { order: { id: 1 }, days: '3' } }),
  },
  {
    code: 50044,
    status: 403,
    message: 'template parameter invalid',
    how: 'temp_para as a non-empty array',
    provoke: app => post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: ['A1', '3'] }),
  },
  {
    code: 50046,
    status: 403,
    message: 'signature not set',
    how: 'an app without signature',
    provoke: app => as('unsigned')(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }),
  },
  {
    code: 50051,
    status: 403,
    message: 'signatures not exist',
    how: 'an unknown sign_id',
    provoke: app => post(app, '/v1/codes', { mobile: MOBILE, temp_id: 1, sign_id: 77 }),
  },
  {
    code: 50054,
    status: 403,
    message: 'content contains special symbol',
    how: '【】 in a parameter',
    provoke: app =>
      post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: { order: '【A1】', days: '3' } }),
  },
  {
    code: 50301,
    status: 403,
    message: 'invalid account',
    how: "a frozen developer's app",
    provoke: app => as('frozen')(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }),
  },
]

import type { SandboxApp } from '../../src/app.js'
import { call } from '../helpers.js'
import type { Row } from './error-rows-request.js'
import { as, MOBILE } from './support.js'

// Rows of the seed's error table about rules: frequency (one row per rule of §8), batches,
// app standing, content and voice codes.

const post = (app: SandboxApp, url: string, body?: unknown) => call(app, 'POST', url, body)
const times = (n: number, send: (i: number) => Promise<unknown>) =>
  Promise.all(Array.from({ length: n }, (_, i) => send(i)))
const batch = (app: SandboxApp, recipients: unknown[]) =>
  post(app, '/v1/messages/batch', { temp_id: 2, recipients })
const order = (i: number) => ({ order: `A${i}`, days: '3' })

export const ruleRows: Row[] = [
  {
    code: 50009,
    status: 403,
    message: 'out of freq',
    how: 'two voice codes within 20 s',
    provoke: async app => {
      await post(app, '/v1/voice_codes', { mobile: MOBILE })
      return post(app, '/v1/voice_codes', { mobile: MOBILE })
    },
  },
  {
    code: 50009,
    status: 403,
    message: 'out of freq',
    how: 'a 201st text code in 24 h',
    provoke: async app => {
      await times(200, () => post(app, '/v1/codes', { mobile: MOBILE, temp_id: 1 }))
      return post(app, '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    },
  },
  {
    code: 50009,
    status: 403,
    message: 'out of freq',
    how: 'a 4th identical notification in 10 min',
    provoke: async app => {
      await times(3, () => post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: order(1) }))
      return post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: order(1) })
    },
  },
  {
    code: 50009,
    status: 403,
    message: 'out of freq',
    how: 'a 201st notification in one day',
    provoke: async app => {
      await times(200, i => post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: order(i) }))
      return post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para: order(999) })
    },
  },
  {
    code: 50009,
    status: 403,
    message: 'out of freq',
    how: 'a 4th marketing message in 10 min',
    provoke: async app => {
      await times(3, i =>
        post(app, '/v1/messages', { mobile: MOBILE, temp_id: 3, temp_para: { name: `n${i}` } }),
      )
      return post(app, '/v1/messages', { mobile: MOBILE, temp_id: 3, temp_para: { name: 'other' } })
    },
  },
  {
    code: 50030,
    status: 403,
    message: 'recipients is empty',
    how: 'an empty batch',
    provoke: app => batch(app, []),
  },
  {
    code: 50031,
    status: 403,
    message: 'too much recipients',
    how: '1001 recipients',
    provoke: app =>
      batch(
        app,
        Array.from({ length: 1001 }, (_, i) => ({
          mobile: `138${String(i).padStart(8, '0')}`,
          temp_para: order(i),
        })),
      ),
  },
  {
    code: 50034,
    status: 403,
    message: 'repeat send',
    how: 'a mobile repeated in a batch',
    perRecipient: true,
    provoke: app =>
      batch(app, [
        { mobile: MOBILE, temp_para: order(1) },
        { mobile: MOBILE, temp_para: order(2) },
      ]),
  },
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

import type { SandboxApp } from '../../src/app.js'
import { call } from '../helpers.js'
import type { Row } from './error-rows-request.js'
import { MOBILE } from './support.js'

// Rows of the seed's error table about frequency (one row per rule of §8) and batches.

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
]

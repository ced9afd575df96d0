import type { SandboxApp } from '../../src/app.js'
import { call } from '../helpers.js'
import type { Row } from './error-rows-request.js'
import { as, MOBILE, OTHER_MOBILE, sendCode } from './support.js'

// Rows of the seed's error table about verification codes, templates and the balance.

const post = (app: SandboxApp, url: string, body?: unknown) => call(app, 'POST', url, body)
const notify = (app: SandboxApp, temp_para: unknown) =>
  post(app, '/v1/messages', { mobile: MOBILE, temp_id: 2, temp_para })

export const codeRows: Row[] = [
  {
    code: 50010,
    status: 403,
    message: 'invalid code',
    how: 'a wrong code',
    provoke: async app => {
      const { msgId, code } = await sendCode(app)
      return post(app, `/v1/codes/${msgId}/valid`, { code: code === '000000' ? '111111' : '000000' })
    },
  },
  {
    code: 50011,
    status: 403,
    message: 'expired code',
    how: 'a code past its ttl',
    provoke: async (app, clock) => {
      const { msgId, code } = await sendCode(app)
      clock.advance(300_001)
      return post(app, `/v1/codes/${msgId}/valid`, { code })
    },
  },
  {
    code: 50012,
    status: 403,
    message: 'verified code',
    how: 'a code verified twice',
    provoke: async app => {
      const { msgId, code } = await sendCode(app)
      await post(app, `/v1/codes/${msgId}/valid`, { code })
      return post(app, `/v1/codes/${msgId}/valid`, { code })
    },
  },
  {
    code: 50013,
    status: 403,
    message: 'invalid temp_id',
    how: 'an unknown temp_id',
    provoke: app => post(app, '/v1/codes', { mobile: MOBILE, temp_id: 999 }),
  },
  {
    code: 50014,
    status: 403,
    message: 'no money',
    how: 'an app with no balance',
    provoke: app => as('poor')(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 }),
  },
  {
    code: 50015,
    status: 400,
    message: 'missing code',
    how: 'a check without code',
    provoke: async app => {
      const { msgId } = await sendCode(app)
      return post(app, `/v1/codes/${msgId}/valid`, { code: null })
    },
  },
  {
    code: 50020,
    status: 403,
    message: 'template auditing',
    how: 'temp_id 4 (under review)',
    provoke: app =>
      post(app, '/v1/messages', { mobile: MOBILE, temp_id: 4, temp_para: { service: 'a', time: 'b' } }),
  },
  {
    code: 50021,
    status: 403,
    message: 'template not pass',
    how: 'temp_id 5 (rejected)',
    provoke: app => post(app, '/v1/messages', { mobile: MOBILE, temp_id: 5, temp_para: { prize: 'a' } }),
  },
  {
    code: 50022,
    status: 403,
    message: 'parameters not all replaced',
    how: 'a missing parameter',
    provoke: app => notify(app, { order: 'A1' }),
  },
  {
    code: 50023,
    status: 403,
    message: 'parameters is empty',
    how: 'no parameters at all',
    provoke: app => notify(app, {}),
  },
  {
    code: 50023,
    status: 403,
    message: 'parameters is empty',
    how: 'an empty parameter',
    provoke: app => notify(app, { order: 'A1', days: ' ' }),
  },
  {
    code: 50024,
    status: 403,
    message: 'unsubscribed mobile',
    how: 'marketing to an unsubscribed mobile',
    provoke: app =>
      as('unsubscribed')(app, 'POST', '/v1/messages', {
        mobile: MOBILE,
        temp_id: 3,
        temp_para: { name: 'Li' },
      }),
  },
  {
    code: 50025,
    status: 403,
    message: 'wrong template type',
    how: 'a notification template on /v1/codes',
    provoke: app => post(app, '/v1/codes', { mobile: MOBILE, temp_id: 2 }),
  },
  {
    code: 50026,
    status: 403,
    message: 'wrong msg_id',
    how: 'an unknown msg_id',
    provoke: app => post(app, '/v1/codes/123456789/valid', { code: '123456' }),
  },
  {
    code: 50026,
    status: 403,
    message: 'wrong msg_id',
    how: "another app's msg_id",
    provoke: async app => {
      const sent = await as('words')(app, 'POST', '/v1/codes', { mobile: OTHER_MOBILE, temp_id: 1 })
      return post(app, `/v1/codes/${sent.body.msg_id}/valid`, { code: '123456' })
    },
  },
]

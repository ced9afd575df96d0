import { FILE_LIMITS } from '../../src/push/files/form.js'
import { curlForm } from '../push/file-forms.js'
import type { Script, Tools } from './failure-scripts.js'
import { bodyChecks, contentChecks, resourceChecks, sm2Checks } from './failure-scripts-push.js'

// File push's documented failures (src/push/files/), each made to happen.

const hi = { alert: 'hi' }

async function uploadScript(t: Tools, kind: 'alias' | 'registration_id') {
  const path = `/v3/files/${kind}`
  const send = (form: { contentType: string; body: Buffer }) =>
    t.raw('POST', path, form.contentType, form.body)
  const value = (i: number) => (kind === 'alias' ? `a${i}` : `1a0018970a8b0${String(i).padStart(6, '0')}`)
  const truncated = curlForm(value(1))
  const answers = [
    await t.raw('POST', path, truncated.contentType, ''),
    await t.raw('POST', path, 'application/json', '{}'),
    await t.raw('POST', path, truncated.contentType, truncated.body.subarray(0, truncated.body.length - 12)),
    await send(curlForm('1'.repeat(FILE_LIMITS.fileBytes + 1))),
    await send(curlForm(value(1), { ttl: '0' })),
    await send(curlForm(`${value(1)}\n${value(2)}\nnot valid!`)),
    await send(curlForm(Array.from({ length: FILE_LIMITS.entries + 1 }, (_, i) => value(i)).join('\n'))),
    await send(curlForm('\n\n')),
  ]
  for (let i = 0; i < FILE_LIMITS.filesPerApp; i++) {
    const ok = await send(curlForm(value(i)))
    if (!ok.startsWith('200 ')) throw new Error(`upload ${i}: ${ok}`)
  }
  answers.push(await send(curlForm(value(1))))
  return answers
}

export const fileScripts: Record<string, Script> = {
  'POST /v3/files/alias': { run: t => uploadScript(t, 'alias') },
  'POST /v3/files/registration_id': { run: t => uploadScript(t, 'registration_id') },
  'GET /v3/files': { run: async () => [] },
  'GET /v3/files/{file_id}': {
    run: async t => [
      await t.fail('GET', '/v3/files/7d431e42dfa6a6d693ac2d04-00000000-0000-0000-0000-000000000000'),
    ],
  },
  'DELETE /v3/files/{file_id}': { run: async () => [] },
  'POST /v3/push/file': {
    run: async t => {
      const fail = (body: unknown) => t.fail('POST', '/v3/push/file', body)
      const to = (audience: unknown, extra: Record<string, unknown> = {}) => ({
        platform: 'all',
        audience,
        notification: hi,
        ...extra,
      })
      // A well-formed registration_id the app has no device for: skipped, so nobody is reached.
      const form = curlForm('1a0018970a8b0ffffff')
      const upload = await t.raw('POST', '/v3/files/registration_id', form.contentType, form.body)
      const fileId = JSON.parse(upload.slice(4)).file_id as string
      const file = { file: { file_id: fileId } }
      return [
        ...(await bodyChecks(fail, file)),
        await fail(to({ tag: ['tag1'] })),
        await fail(to({ file: {} })),
        await fail(to({ file: { file_id: 5 } })),
        await fail(to({ file: { file_id: 'nope' } })),
        ...(await contentChecks(fail, file)),
        ...(await sm2Checks(t, '/v3/push/file')),
        await fail(to(file, { options: { override_msg_id: '18100000000000099' } })),
        ...(await resourceChecks(t, fail, file)),
        await fail(to(file)),
      ]
    },
  },
}

import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { signChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { emptyOk } from '../../http/empty-reply.js'
import { params } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { smsErrors as e } from '../errors.js'
import { pathId } from '../fields.js'
import { signChanges, signForm } from './form.js'
import type { Sign } from './table.js'

// Signature management, jsms-api.md §2.10. Create and modify are multipart forms (POST both) and
// answer exactly HTTP 200 {"sign_id":int}: the Java client throws on any other status. A new or
// modified signature waits `reviewDelayMs` under review; the first approved one of an app becomes
// its default (table.ts: promote).

const signIdAnswer = z.object({ sign_id: z.int() })
const signAnswer = signIdAnswer.extend({
  sign: z.string(),
  status: z.int().describe('0 under review, 1 approved, 2 rejected.'),
  is_default: z.int().describe("1: the app's default signature."),
  use_status: z.int().describe('1: in use.'),
})

export function signView(s: Sign, usedByMessages: boolean): z.input<typeof signAnswer> {
  return {
    sign_id: s.signId,
    sign: s.sign,
    status: s.status,
    is_default: s.isDefault ? 1 : 0,
    // "In use": the default signature (every message without sign_id gets it) or one that
    // messages already went out under.
    use_status: s.isDefault || usedByMessages ? 1 : 0,
  }
}

const signIdParams = params({ sign_id: pathId('The signature id.', e.invalidSignId) })

export function signRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps

  /** An existing signature of the caller's app (50102 otherwise). */
  function find(req: FastifyRequest, signId: number): Sign {
    const s = store.signs.get(req.tenant.app.appKey, signId)
    if (!s) throw e.invalidSignId().because(`the app has no signature ${signId}`)
    return s
  }

  /**
   * One signature under review at a time per app: submitting while *another* one is pending is
   * 50103 (sms-service.md §7, "another signature is pending review"). Modifying the pending one
   * itself replaces its content and restarts its review.
   */
  function checkNoOtherInAudit(appKey: string, signId = -1): void {
    if (store.signs.pendingOther(appKey, signId))
      throw e.otherSignaturesInAudit().because('another signature of the app is under review: one at a time')
  }

  return [
    vendorRoute({
      method: 'POST',
      url: '/sign',
      summary: 'Create a signature, under review (multipart form, jsms-api.md §2.10)',
      description:
        'Images (`image0`…`image3`, or `images`): PNG, JPEG, GIF or BMP by their bytes, 2 MiB each.',
      reads: { body: signForm },
      checks: [e.invalidSignature(), e.otherSignaturesInAudit()],
      answer: signIdAnswer,
      handler: async (req, { body: form }) => {
        const { sign } = form
        if (sign === undefined) throw e.invalidSignature().because('the form has no `sign` field')
        const { appKey } = req.tenant.app
        const signId = await store.write({ announces: ['sign.changed'] }, () => {
          const now = req.tenant.now()
          checkNoOtherInAudit(appKey)
          const id = store.sequences.next('sign_id')
          store.signs.insert(
            {
              appKey,
              signId: id,
              sign,
              type: form.type ?? null,
              remark: form.remark ?? '',
              images: form.images,
              status: 0,
              isDefault: false,
              refuseReason: null,
              reviewAt: now + config.reviewDelayMs,
            },
            now,
          )
          signChanged(store, appKey, 'created', id, now)
          return id
        })
        return { sign_id: signId }
      },
    }),
    vendorRoute({
      // What the form leaves out keeps its current value: PHP sends empty parts for "not given".
      method: 'POST',
      url: '/sign/:sign_id',
      summary: 'Modify a signature: what the form leaves out is kept; review again (jsms-api.md §2.10)',
      reads: { params: signIdParams, body: signChanges },
      checks: [e.invalidSignId(), e.otherSignaturesInAudit()],
      answer: signIdAnswer,
      handler: async (req, { params, body: form }) => {
        const signId = params.sign_id
        const { appKey } = req.tenant.app
        await store.write({ announces: ['sign.changed'] }, () => {
          const now = req.tenant.now()
          const current = find(req, signId)
          checkNoOtherInAudit(appKey, signId)
          const input = {
            sign: form.sign ?? current.sign,
            type: form.type ?? current.type,
            remark: form.remark ?? current.remark,
            images: form.images > 0 ? form.images : current.images,
          }
          store.signs.update(appKey, signId, input, now + config.reviewDelayMs, now)
          signChanged(store, appKey, 'modified', signId, now)
        })
        return { sign_id: signId }
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/sign/:sign_id',
      summary: 'Read a signature (jsms-api.md §2.10)',
      reads: { params: signIdParams },
      checks: [e.invalidSignId()],
      answer: signAnswer,
      handler: async (req, { params }) => {
        const s = find(req, params.sign_id)
        return signView(s, store.signs.usedByMessages(s.appKey, s.signId))
      },
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/sign/:sign_id',
      summary: 'Delete a signature (jsms-api.md §2.10)',
      reads: { params: signIdParams },
      checks: [e.invalidSignId(), e.defaultSignatureCannotBeDeleted()],
      answer: { description: 'Deleted: an empty body.', media: null },
      handler: async (req, { params }, reply) => {
        const signId = params.sign_id
        await store.write({ announces: ['sign.changed'] }, () => {
          const s = find(req, signId)
          if (s.isDefault)
            throw e.defaultSignatureCannotBeDeleted().because(`signature ${signId} is the app's default`)
          store.signs.remove(s.appKey, signId)
          signChanged(store, s.appKey, 'deleted', signId, req.tenant.now())
        })
        return emptyOk(reply)
      },
    }),
  ]
}

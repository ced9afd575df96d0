import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.js'
import { emptyOk } from '../../http/empty-reply.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { Sign } from '../../store/sms/signs.js'
import { smsErrors } from '../errors.js'
import { readPathId } from '../path-id.js'
import { createSignDocs, deleteSignDocs, modifySignDocs, readSignDocs } from '../templates/docs.js'
import { readSignForm, SIGN_LIMITS } from './form.js'

// Signature management, jsms-api.md §2.10. Create and modify are multipart forms (POST both) and
// answer exactly HTTP 200 {"sign_id":int}: the Java client throws on any other status. A new or
// modified signature waits `reviewDelayMs` under review; the first approved one of an app becomes
// its default (store/sms/signs.ts).

export function signView(s: Sign, usedByMessages: boolean) {
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

type SignIdParams = { sign_id: string }
const signIdOf = (params: SignIdParams) => readPathId(params.sign_id, smsErrors.invalidSignId)

const multipart = { config: { body: 'multipart' as const }, bodyLimit: SIGN_LIMITS.maxBodyBytes }

export function signRoutes(deps: AppDeps): RouteSpec[] {
  const { store, config } = deps

  /** An existing signature of the caller's app (50102 otherwise). */
  function find(req: FastifyRequest, signId: number): Sign {
    const s = store.signs.get(req.tenant.app.appKey, signId)
    if (!s) throw smsErrors.invalidSignId()
    return s
  }

  /**
   * One signature under review at a time per app: submitting while *another* one is pending is
   * 50103 (sms-service.md §7, "another signature is pending review"). Modifying the pending one
   * itself replaces its content and restarts its review.
   */
  function checkNoOtherInAudit(appKey: string, signId = -1): void {
    if (store.signs.pendingOther(appKey, signId)) throw smsErrors.otherSignaturesInAudit()
  }

  return [
    {
      method: 'POST',
      url: '/sign',
      docs: createSignDocs,
      ...multipart,
      handler: async req => {
        const form = await readSignForm(req)
        const { sign } = form
        if (sign === undefined) throw smsErrors.invalidSignature()
        const { appKey } = req.tenant.app
        const signId = await store.write(() => {
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
          return id
        })
        return { sign_id: signId }
      },
    },
    route<{ Params: SignIdParams }>({
      // What the form leaves out keeps its current value: PHP sends empty parts for "not given".
      method: 'POST',
      url: '/sign/:sign_id',
      docs: modifySignDocs,
      ...multipart,
      handler: async req => {
        const signId = signIdOf(req.params)
        const form = await readSignForm(req)
        const { appKey } = req.tenant.app
        await store.write(() => {
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
        })
        return { sign_id: signId }
      },
    }),
    route<{ Params: SignIdParams }>({
      method: 'GET',
      url: '/sign/:sign_id',
      docs: readSignDocs,
      handler: async req => {
        const s = find(req, signIdOf(req.params))
        return signView(s, store.signs.usedByMessages(s.appKey, s.signId))
      },
    }),
    route<{ Params: SignIdParams }>({
      method: 'DELETE',
      url: '/sign/:sign_id',
      docs: deleteSignDocs,
      handler: async (req, reply) => {
        const signId = signIdOf(req.params)
        await store.write(() => {
          const s = find(req, signId)
          if (s.isDefault) throw smsErrors.defaultSignatureCannotBeDeleted()
          store.signs.remove(s.appKey, signId)
        })
        return emptyOk(reply)
      },
    }),
  ]
}

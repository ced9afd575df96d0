import type { PipelineDeps } from '../../../deps.js'
import { isApiError } from '../../../errors.js'
import {
  checkContent,
  deliver,
  renderTemplateMessage,
  resolveSign,
  resolveTemplate,
  sensitiveWordsOf,
  signed,
} from '../../../sms/sending/index.js'
import type { Tenant } from '../../../tenancy.js'
import type { SmsFallback } from '../options.js'

/**
 * Texts the device's mobile through the SMS side of the same app (jpush-api.md §5.6): the same
 * template, signature, frequency and balance rules as POST /v1/messages. Call inside a write job;
 * the SMS runs in its own savepoint, so a refusal (no money, unsubscribed…) is recorded as its
 * JSMS code and leaves nothing else undone.
 */
export function sendSmsFallback(
  deps: PipelineDeps,
  tenant: Tenant,
  sms: SmsFallback,
  mobile: string,
  now: number,
): { smsMsgId: string | null; smsError: number | null } {
  try {
    const smsMsgId = deps.store.transaction(() => {
      const sign = resolveSign(deps, tenant, sms.signId)
      if (sms.tempId === undefined) {
        const content = signed(sign.sign, sms.content ?? '')
        checkContent(content, sensitiveWordsOf(deps, tenant))
        return deliver(
          deps,
          tenant,
          { mobile, kind: 'template', template: null, sign, para: null, content },
          now,
        )
      }
      const template = resolveTemplate(deps, tenant, sms.tempId, [1, 2, 3])
      const content = renderTemplateMessage(deps, tenant, template, sign, sms.tempPara)
      return deliver(
        deps,
        tenant,
        { mobile, kind: 'template', template, sign, para: sms.tempPara, content, tag: 'jpush' },
        now,
      )
    })
    return { smsMsgId, smsError: null }
  } catch (err) {
    if (!isApiError(err)) throw err
    return { smsMsgId: null, smsError: err.code }
  }
}

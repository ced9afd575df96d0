import type { Balances } from '../store/apps/apps.js'
import type { Store } from '../store/index.js'

// The credentials of the vendor's own curl examples, so those work verbatim.
export const DEFAULT_DEV_KEY = 'sandboxdevkey00000000001'
export const DEFAULT_DEV_SECRET = 'sandboxdevsecret00000001'
export const DEFAULT_APP_KEY = '7d431e42dfa6a6d693ac2d04'
export const DEFAULT_MASTER_SECRET = '5e987ac6d2e04d95a9d8f0d1'

export const DEFAULT_APP_BALANCES: Balances = {
  balance: 10_000,
  voice: 1_000,
  industry: 10_000,
  market: 10_000,
}
export const DEFAULT_DEV_BALANCES: Balances = {
  balance: 100_000,
  voice: 10_000,
  industry: 100_000,
  market: 100_000,
}

/** Words no message may carry (50037), on top of each app's own list. */
export const DEFAULT_SENSITIVE_WORDS = ['赌博', '代开发票', 'sensitiveword']

export const DEFAULT_SIGN = { signId: 1, sign: '极光沙箱', type: 3, remark: 'sandbox default signature' }

/** A template as its feature's table reads it (sms/templates/table.ts, a table of the store's). */
type Template = NonNullable<ReturnType<Store['templates']['get']>>

type FixtureTemplate = Pick<
  Template,
  'tempId' | 'template' | 'type' | 'ttl' | 'remark' | 'status' | 'refuseReason'
>

/** Every new app gets these, so SDK examples (which use temp_id 1) work at once. */
export const DEFAULT_TEMPLATES: FixtureTemplate[] = [
  {
    tempId: 1,
    template: '您的验证码为{{code}}，5分钟内有效，请勿泄露。',
    type: 1,
    ttl: 300,
    remark: 'verification code',
    status: 1,
    refuseReason: null,
  },
  {
    tempId: 2,
    template: '您的订单{{order}}已发货，预计{{days}}天内送达。',
    type: 2,
    ttl: 0,
    remark: 'shipping notification',
    status: 1,
    refuseReason: null,
  },
  {
    tempId: 3,
    template: '{{name}}您好，会员日全场8折，欢迎光临。回TD退订',
    type: 3,
    ttl: 0,
    remark: 'member day promotion',
    status: 1,
    refuseReason: null,
  },
  {
    tempId: 4,
    template: '您预约的{{service}}已确认，时间{{time}}。',
    type: 2,
    ttl: 0,
    remark: 'appointment confirmation',
    status: 0,
    refuseReason: null,
  },
  {
    tempId: 5,
    template: '恭喜您中奖了，请点击领取{{prize}}。',
    type: 3,
    ttl: 0,
    remark: 'lottery',
    status: 2,
    refuseReason: 'content looks like fraud',
  },
]

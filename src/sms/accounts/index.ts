import type { Feature } from '../../http/feature.js'
import { accountRoutes } from './accounts.js'

// The account's balances (jsms-api.md §2.7): the app's with its own credentials, the developer's with devKey:devSecret.

export const smsAccounts = {
  name: 'sms/accounts',
  vendor: { sms: [accountRoutes] },
} satisfies Feature

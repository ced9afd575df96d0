import type { Tool } from '../tool.js'
import { appSettings, exportApp, importApp, listApps, resetApp, uiLink } from './app.js'
import { explainRequest, waitForRequest } from './journal.js'
import { clickPush, listDevices, listPushes, registerDevice, waitForPush } from './push.js'
import { injectReply, latestCode, listTexts, reviewSign, reviewTemplate, waitForText } from './sms.js'
import { advanceClock, armFault, clearFaults } from './steer.js'

/** Every tool, in the order a client lists them: what a test reads first, then what it steers. */
export const TOOLS: readonly Tool[] = [
  latestCode,
  listTexts,
  listPushes,
  listDevices,
  waitForText,
  waitForPush,
  waitForRequest,
  explainRequest,
  advanceClock,
  armFault,
  clearFaults,
  injectReply,
  clickPush,
  reviewTemplate,
  reviewSign,
  registerDevice,
  resetApp,
  exportApp,
  importApp,
  appSettings,
  uiLink,
  listApps,
]

import { z } from 'zod'
import { appDocument, importedAnswer } from '../across/app/transfer.js'
import { appView } from '../across/app/view.js'
import { schemas as eventSchemas } from '../across/events/routes.js'
import { armed } from '../across/faults/routes.js'
import { appsAnswer } from '../across/operator.js'
import { items } from '../items/items.js'
import { pushDeviceSchemas } from '../push/device/index.js'
import { clickSchemas, pushSendItems } from '../push/send/index.js'
import { replySchemas } from '../sms/reports/index.js'
import { sendingItems } from '../sms/sending/index.js'
import { reviewSchemas } from '../sms/templates/index.js'

// What the tools answer, as the control plane's routes declare their answers: one shape per wire
// item, so a tool's outputSchema is the route's answer schema (and what the route lets out is
// what the tool can pass on). The changes: an app's settings without its developer's secret, which
// no tool shows, and the exported document's rows described loosely.

/** The app as GET /_sandbox/app shows it, without `developer.dev_secret`. */
export const appSettings = appView.extend({ developer: appView.shape.developer.omit({ dev_secret: true }) })

export const shapes = {
  text: sendingItems.message,
  code: sendingItems.code,
  push: pushSendItems.push,
  request: items.request,
  device: pushDeviceSchemas.device,
  clock: appView.shape.clock,
  event: eventSchemas.events.shape.events.element,
  fault: armed,
  replied: replySchemas.replied,
  clicked: clickSchemas.clicked,
  decidedTemplate: reviewSchemas.decidedTemplate,
  decidedSign: reviewSchemas.decidedSign,
  appSettings,
  // Its rows' values left open: a BLOB's `{"base64"}` carries a JSON-schema `format` (z.base64())
  // that the validators of MCP clients do not know, and warn about at every call.
  document: appDocument.extend({
    tables: z
      .record(z.string(), z.array(z.record(z.string(), z.unknown())))
      .describe('Every row of the app, by table, as SQLite holds them (a BLOB as {"base64": …}).'),
  }),
  imported: importedAnswer,
  apps: appsAnswer,
}

export type Shape<K extends keyof typeof shapes> = z.output<(typeof shapes)[K]>

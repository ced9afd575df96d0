import type { Answer, Body, ItemOf } from './wire.js'

// What the steering endpoints take and answer: the devices a test plays, the carrier's reports,
// the handset's replies, the reviewer's decisions. The answers are read out of the generated
// description (openapi.ts), and so is what a test sends (the routes' schemas say both).

/** A push device as POST /_sandbox/push/devices creates it. */
export type NewDevice = Body<'postSandboxPushDevices'>

export type Device = ItemOf<'getSandboxPushDevices', 'devices'>

/** A device brought online or offline, and how many waiting pushes that delivered. */
export type DeviceChange = Answer<'postSandboxPushDevicesRegistrationId'>

/** A push opened on a device (POST /_sandbox/push/messages/{msg_id}/clicks). */
export type Click = Answer<'postSandboxPushMessagesMsgIdClicks'>

/** A delivery report steered (POST /_sandbox/sms/reports). */
export type SteeredReport = Answer<'postSandboxSmsReports'>

/** An uplink reply played (POST /_sandbox/sms/replies); TD, T or 退订 unsubscribe. */
export type Replied = Answer<'postSandboxSmsReplies'>

/** 1 approves, 2 rejects (with a reason). */
export type Decision = NonNullable<Body<'postSandboxSmsTemplatesTempIdReview'>['status']>

export type DecidedTemplate = Answer<'postSandboxSmsTemplatesTempIdReview'>

export type DecidedSign = Answer<'postSandboxSmsSignsSignIdReview'>

/** An image of the image API (POST /v3/images/…), as GET /_sandbox/push/images shows it. */
export type PushImage = ItemOf<'getSandboxPushImages', 'images'>

/** A test device: a push with options.test_model reaches only these. */
export type TestDevice = ItemOf<'getSandboxPushTestDevices', 'test_devices'>

/** What a push template is made of: a push without audience, its variables `{{name}}`. */
export type PushTemplateInput = Body<'postSandboxPushTemplates'>

export type PushTemplate = ItemOf<'getSandboxPushTemplates', 'templates'>

// docs/sdk-setup.md's Node snippets (the one SNIPPET names, written by
// test/sdk-setup/sdk-setup.test.ts as the page shows it), run by `node --test` with the SDK from
// npm, unchanged, in a network where the vendor's hostnames are the sandbox. What the SDK returns
// is checked here; what the sandbox received, by the test that runs this one.
const assert = require('node:assert/strict')
const { writeFileSync } = require('node:fs')
const { test } = require('node:test')

test(`${process.env.SNIPPET}: a push through the sandbox`, async () => {
  const { pushThroughTheSandbox } = require(process.env.SNIPPET)
  const res = await pushThroughTheSandbox(process.env.JIGUANG_APP_KEY, process.env.JIGUANG_MASTER_SECRET)
  assert.match(res.msg_id, /^\d+$/)
  writeFileSync(process.env.SDK_SETUP_RESULT, JSON.stringify({ msg_id: res.msg_id }))
})

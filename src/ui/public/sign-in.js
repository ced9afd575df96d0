// @ts-check
// The sign-in page: an app's appKey and masterSecret, or the operator's user and password. Each
// refusal says what is wrong with what was typed, checked here first (the shape of an appKey)
// and then by the control plane itself (GET /_sandbox/app, or GET /_sandbox/apps for the operator).

import { createApi } from './api.js'
import { h } from './dom.js'
import { WELL_FORMED } from './session.js'

/** The default app of the seed (src/seed/fixtures.ts), unless a seed file replaced it. */
const DEFAULT_APP = { app_key: '7d431e42dfa6a6d693ac2d04', master_secret: '5e987ac6d2e04d95a9d8f0d1' }

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789'
/** 24 random letters and digits: a new app's appKey or masterSecret. */
export function newCredential() {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return [...bytes].map(b => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')
}

/**
 * @typedef {{ operator?: boolean, settings?: Record<string, unknown> }} Info
 * GET /_sandbox/info: whether an operator exists and whether new appKeys make apps (public).
 */

/**
 * What is wrong with app credentials before asking the sandbox, or null.
 * @param {string} appKey
 * @param {string} secret
 */
export function appProblem(appKey, secret) {
  if (appKey === '') return 'Type an appKey.'
  if (!WELL_FORMED.test(appKey))
    return `An appKey is 24 letters or digits: "${appKey}" has ${appKey.length} character${appKey.length === 1 ? '' : 's'}${/[^A-Za-z0-9]/.test(appKey) ? ', not all letters or digits' : ''}. To sign in as the operator, choose "The operator" above.`
  if (secret === '') return 'Type the masterSecret of that app.'
  return null
}

/** The control plane's 90002, with nothing added (src/sandbox/errors.ts). */
const PLAIN_REFUSAL = 'wrong credentials: appKey and masterSecret do not match'

/**
 * The sandbox refused app credentials (401): what that means for what was typed.
 * @param {string} appKey
 * @param {string} secret
 * @param {import('./api.js').ApiError} err
 * @param {Info} info
 */
function appRefusal(appKey, secret, err, info) {
  if (err.status !== 401) return `Could not sign in as ${appKey}: ${err.message}`
  // Auto-provisioning refused (its caps): the control plane's message adds which.
  if (err.said !== PLAIN_REFUSAL) return `Could not sign in as ${appKey}: ${err.said}`
  if (!WELL_FORMED.test(secret))
    return `The masterSecret is not the one of app ${appKey}. (A new app needs a masterSecret of 24 letters or digits too: "${secret}" has ${secret.length} characters.)`
  if (info.settings?.AUTO_PROVISION === false)
    return `Wrong credentials: no app ${appKey} with that masterSecret, and this sandbox makes no new apps (AUTO_PROVISION=false).`
  return `App ${appKey} exists, with another masterSecret: type its own, or choose a new appKey for a new app.`
}

/**
 * The sign-in page. `onSignedIn(credentials)` once the sandbox took them.
 * @param {{ info: Info, appKey?: string, reason?: string, onSignedIn: (c: import('./session.js').Credentials) => void }} options
 */
export function signInPage({ info, appKey = '', reason = '', onSignedIn }) {
  const error = h('p', { id: 'sign-in-error', class: 'error', role: 'alert' }, reason)
  const asApp = h('input', { type: 'radio', name: 'as', value: 'app', id: 'as-app', checked: true })
  const asOperator = h('input', { type: 'radio', name: 'as', value: 'operator', id: 'as-operator' })
  const user = h('input', {
    id: 'sign-in-user',
    name: 'user',
    required: true,
    autocomplete: 'username',
    spellcheck: 'false',
    value: appKey,
  })
  const password = h('input', {
    id: 'sign-in-password',
    name: 'password',
    type: 'password',
    required: true,
    autocomplete: 'current-password',
  })
  const userLabel = h('span', { class: 'label' }, 'appKey')
  const passwordLabel = h('span', { class: 'label' }, 'masterSecret')
  const relabel = () => {
    const operator = asOperator.checked
    userLabel.textContent = operator ? 'Operator user' : 'appKey'
    passwordLabel.textContent = operator ? 'Operator password' : 'masterSecret'
    error.textContent = ''
  }
  asApp.addEventListener('change', relabel)
  asOperator.addEventListener('change', relabel)
  const fill = (/** @type {string} */ key, /** @type {string} */ secret, operator = false) => {
    ;(operator ? asOperator : asApp).checked = true
    relabel()
    user.value = key
    password.value = secret
    user.focus()
  }

  /** @param {SubmitEvent} e */
  async function submit(e) {
    e.preventDefault()
    const button = /** @type {HTMLButtonElement | null} */ (e.submitter)
    const typedUser = user.value.trim()
    const typedPassword = password.value.trim()
    error.textContent = ''
    if (asOperator.checked) {
      if (info.operator === false) {
        error.textContent =
          "This sandbox has no operator (SANDBOX_OPERATOR=off): sign in with an app's appKey and masterSecret."
        return
      }
      const credentials = /** @type {const} */ ({
        kind: 'operator',
        user: typedUser,
        password: typedPassword,
      })
      if (button) button.disabled = true
      try {
        await createApi(credentials).get('/_sandbox/apps?limit=1')
        onSignedIn(credentials)
      } catch (err) {
        const e2 = /** @type {import('./api.js').ApiError} */ (err)
        error.textContent =
          e2.status === 401
            ? `Wrong operator user or password: they are SANDBOX_OPERATOR's (unset: operator / operator on a sandbox that listens on loopback, else the password its first start printed).`
            : `Could not sign in as the operator: ${e2.message}`
      } finally {
        if (button) button.disabled = false
      }
      return
    }
    const problem = appProblem(typedUser, typedPassword)
    if (problem) {
      error.textContent = problem
      return
    }
    const credentials = /** @type {const} */ ({
      kind: 'app',
      app_key: typedUser,
      master_secret: typedPassword,
    })
    if (button) button.disabled = true
    try {
      await createApi(credentials).get('/_sandbox/app')
      onSignedIn(credentials)
    } catch (err) {
      error.textContent = appRefusal(typedUser, typedPassword, /** @type {any} */ (err), info)
    } finally {
      if (button) button.disabled = false
    }
  }

  const autoProvision = info.settings?.AUTO_PROVISION !== false
  return h(
    'section',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title' }, 'Sign in'),
    h(
      'form',
      { class: 'stacked', id: 'sign-in-form', onsubmit: submit },
      h(
        'fieldset',
        { class: 'choice' },
        h('legend', null, 'Sign in as'),
        h('label', { class: 'check' }, asApp, ' An app (its appKey and masterSecret, as on the API)'),
        h('label', { class: 'check' }, asOperator, ' The operator (every app)'),
      ),
      h('label', { class: 'field' }, userLabel, user),
      h('label', { class: 'field' }, passwordLabel, password),
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')),
    ),
    h(
      'section',
      { class: 'hints', 'aria-labelledby': 'hints-title' },
      h('h3', { id: 'hints-title' }, 'Which credentials work'),
      h(
        'ul',
        null,
        h(
          'li',
          null,
          'The default app: appKey ',
          h('code', null, DEFAULT_APP.app_key),
          ', masterSecret ',
          h('code', null, DEFAULT_APP.master_secret),
          ' (unless a seed file changed it). ',
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: () => fill(DEFAULT_APP.app_key, DEFAULT_APP.master_secret),
            },
            'Use the default app',
          ),
        ),
        autoProvision &&
          h(
            'li',
            null,
            'Any well-formed appKey (24 letters or digits) with a masterSecret of 24 letters or digits makes a new app, empty but for the fixtures, as on the API. ',
            h(
              'button',
              { type: 'button', class: 'link', onclick: () => fill(newCredential(), newCredential()) },
              'Make up a new app',
            ),
          ),
        info.operator === false
          ? h('li', null, 'This sandbox has no operator (SANDBOX_OPERATOR=off).')
          : h(
              'li',
              null,
              'The operator sees every app and opens any of them without its secret: SANDBOX_OPERATOR; unset, ',
              h('code', null, 'operator'),
              ' / ',
              h('code', null, 'operator'),
              ' on a sandbox that listens on loopback, else the password its first start printed. ',
              h(
                'button',
                { type: 'button', class: 'link', onclick: () => fill('operator', 'operator', true) },
                'Use the default operator',
              ),
            ),
        h(
          'li',
          null,
          'The credentials stay in this tab (its session storage) until you sign out or close it.',
        ),
      ),
    ),
  )
}

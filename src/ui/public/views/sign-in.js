// @ts-check
// The sign-in page: an app's appKey and masterSecret, or the operator's user and password. Each
// refusal says what is wrong with what was typed, checked here first (the shape of an appKey)
// and then by the control plane itself (GET /_sandbox/app, or GET /_sandbox/apps for the operator).
// Too many failed sign-ins from one address are answered 429 with Retry-After: the page says when
// the sandbox checks credentials again, and counts down to it.

import { useEffect, useRef, useState } from 'preact/hooks'
import { createApi } from '../lib/api.js'
import { html } from '../lib/html.js'
import { WELL_FORMED } from '../lib/session.js'

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
 * @param {import('../lib/api.js').ApiError} err
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
 * Too many failed sign-ins (429): the control plane's words, and when credentials are checked again.
 * @param {import('../lib/api.js').ApiError} err
 * @param {number} left seconds
 */
const throttled = (err, left) =>
  left > 0
    ? `Too many failed sign-ins from this address: the sandbox checks credentials again in ${left} s. (${err.message})`
    : 'You may sign in again now.'

/**
 * The sign-in page. `onSignedIn(credentials)` once the sandbox took them.
 * @param {{ info: Info, appKey?: string, reason?: string, onSignedIn: (c: import('../lib/session.js').Credentials) => void }} props
 */
export function SignInPage({ info, appKey = '', reason = '', onSignedIn }) {
  const [operator, setOperator] = useState(false)
  const [error, setError] = useState({ text: reason, n: 0 })
  const [busy, setBusy] = useState(false)
  /** A 429: the refusal, and when (Date.now()) the sandbox checks credentials again. */
  const [wait, setWait] = useState(/** @type {{ err: any, until: number } | null} */ (null))
  const [, tick] = useState(0)
  const user = useRef(/** @type {HTMLInputElement | null} */ (null))
  const password = useRef(/** @type {HTMLInputElement | null} */ (null))
  useEffect(() => user.current?.focus(), [])
  useEffect(() => {
    if (!wait) return
    const timer = setInterval(() => {
      tick(n => n + 1)
      if (Date.now() >= wait.until) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [wait])
  const left = wait ? Math.max(0, Math.ceil((wait.until - Date.now()) / 1000)) : 0
  /** Each refusal is drawn anew, so that a screen reader reads it again. */
  const say = text => setError(e => ({ text, n: e.n + 1 }))

  const choose = asOperator => {
    setOperator(asOperator)
    say('')
  }
  const fill = (key, secret, asOperator = false) => {
    choose(asOperator)
    if (user.current) user.current.value = key
    if (password.current) password.current.value = secret
    user.current?.focus()
  }

  /** Tries the credentials: `check` is the control plane's call that proves them. */
  async function attempt(credentials, check, refusal) {
    setBusy(true)
    try {
      await check()
      onSignedIn(credentials)
    } catch (err) {
      if (err.status === 429) {
        setWait({ err, until: Date.now() + (err.retryAfter ?? 60) * 1000 })
        say('')
      } else say(refusal(err))
    } finally {
      setBusy(false)
    }
  }

  async function submit(e) {
    e.preventDefault()
    const typedUser = user.current?.value.trim() ?? ''
    const typedPassword = password.current?.value.trim() ?? ''
    say('')
    if (operator) {
      if (info.operator === false)
        return say(
          "This sandbox has no operator (SANDBOX_OPERATOR=off): sign in with an app's appKey and masterSecret.",
        )
      const credentials = /** @type {const} */ ({
        kind: 'operator',
        user: typedUser,
        password: typedPassword,
      })
      return attempt(
        credentials,
        () => createApi(credentials).get('/_sandbox/apps?limit=1'),
        err =>
          err.status === 401
            ? `Wrong operator user or password: they are SANDBOX_OPERATOR's (unset: operator / operator on a sandbox that listens on loopback, else the password its first start printed).`
            : `Could not sign in as the operator: ${err.message}`,
      )
    }
    const problem = appProblem(typedUser, typedPassword)
    if (problem) return say(problem)
    const credentials = /** @type {const} */ ({
      kind: 'app',
      app_key: typedUser,
      master_secret: typedPassword,
    })
    return attempt(
      credentials,
      () => createApi(credentials).get('/_sandbox/app'),
      err => appRefusal(typedUser, typedPassword, err, info),
    )
  }

  const autoProvision = info.settings?.AUTO_PROVISION !== false
  const waiting = wait !== null && left > 0
  return html`<section class="sign-in" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Sign in</h2>
    <form class="stacked" id="sign-in-form" onSubmit=${submit}>
      <fieldset class="choice">
        <legend>Sign in as</legend>
        <label class="check"
          ><input type="radio" name="as" value="app" id="as-app" checked=${!operator} onChange=${() => choose(false)} />
          An app (its appKey and masterSecret, as on the API)</label
        >
        <label class="check"
          ><input type="radio" name="as" value="operator" id="as-operator" checked=${operator}
            onChange=${() => choose(true)} />
          The operator (every app)</label
        >
      </fieldset>
      <label class="field"
        ><span class="label">${operator ? 'Operator user' : 'appKey'}</span>
        <input id="sign-in-user" name="user" ref=${user} required autocomplete="username" spellcheck="false"
          defaultValue=${appKey}
      /></label>
      <label class="field"
        ><span class="label">${operator ? 'Operator password' : 'masterSecret'}</span>
        <input id="sign-in-password" name="password" ref=${password} type="password" required
          autocomplete="current-password"
      /></label>
      <p id="sign-in-error" class="error" role="alert"><span key=${error.n}>${error.text}</span></p>
      ${
        wait &&
        html`<p id="sign-in-wait" class=${waiting ? 'problem-inline' : 'ok'} role="status">${throttled(wait.err, left)}</p>`
      }
      <div class="actions">
        <button type="submit" disabled=${busy || waiting}>${waiting ? `Sign in (in ${left} s)` : 'Sign in'}</button>
      </div>
    </form>
    <section class="hints" aria-labelledby="hints-title">
      <h3 id="hints-title">Which credentials work</h3>
      <ul>
        <li>
          The default app: appKey <code>${DEFAULT_APP.app_key}</code>, masterSecret${' '}
          <code>${DEFAULT_APP.master_secret}</code> (unless a seed file changed it).${' '}
          <button type="button" class="link" onClick=${() => fill(DEFAULT_APP.app_key, DEFAULT_APP.master_secret)}>
            Use the default app
          </button>
        </li>
        ${
          autoProvision &&
          html`<li>
          Any well-formed appKey (24 letters or digits) with a masterSecret of 24 letters or digits makes a new
          app, empty but for the fixtures, as on the API.${' '}
          <button type="button" class="link" onClick=${() => fill(newCredential(), newCredential())}>
            Make up a new app
          </button>
        </li>`
        }
        ${
          info.operator === false
            ? html`<li>This sandbox has no operator (SANDBOX_OPERATOR=off).</li>`
            : html`<li>
              The operator sees every app and opens any of them without its secret: SANDBOX_OPERATOR; unset,${' '}
              <code>operator</code> / <code>operator</code> on a sandbox that listens on loopback, else the
              password its first start printed.${' '}
              <button type="button" class="link" onClick=${() => fill('operator', 'operator', true)}>
                Use the default operator
              </button>
            </li>`
        }
        <li>The credentials stay in this tab (its session storage) until you sign out or close it.</li>
      </ul>
    </section>
  </section>`
}

// @ts-check
// The views of an app, in the order of their tabs: each one's label, its tab's badge (a count drawn
// from the app's data, so every badge shows without loading its view) and its module, loaded the
// first time the view is shown: the first load of the page fetches only what its first view needs.

/**
 * @typedef {{ id: string, label: string, count?: (data: any) => number, load: () => Promise<{ View: any }> }} ViewEntry
 */

/** @type {ViewEntry[]} */
export const VIEWS = [
  {
    id: 'phones',
    label: 'Phones',
    count: d => new Set([...d.messages.map(m => m.mobile), ...d.replies.map(r => r.mobile)]).size,
    load: () => import('./phones.js'),
  },
  { id: 'devices', label: 'Devices', count: d => d.devices.length, load: () => import('./devices.js') },
  {
    id: 'scheduled',
    label: 'Scheduled',
    count: d =>
      d.smsSchedules.filter(t => t.state === 'pending').length +
      d.pushSchedules.filter(t => t.state === 'active').length,
    load: () => import('./scheduled.js'),
  },
  { id: 'requests', label: 'Requests', load: () => import('./requests.js') },
  {
    id: 'callbacks',
    label: 'Callbacks',
    count: d => d.callbacks.length,
    load: () => import('./callbacks.js'),
  },
  {
    id: 'templates',
    label: 'Templates and signatures',
    count: d => [...d.templates, ...d.signs].filter(r => r.status === 0).length,
    load: () => import('./reviews.js'),
  },
  { id: 'clock', label: 'Clock', load: () => import('./clock.js') },
  {
    id: 'settings',
    label: 'Faults and settings',
    count: d => d.faults.length,
    load: () => import('./settings.js'),
  },
]

/** The operator's list of apps, and the sign-in page: each loaded when first shown too. */
export const loadApps = () => import('./apps.js')
export const loadSignIn = () => import('./sign-in.js')

/** Names of every request channel (no zod here: the sandboxed preload bundles this file only). */
export const CHANNEL_NAMES = [
  'app.info',
  'api.call',
  'api.cancel',
  'accounts.list',
  'accounts.add',
  'accounts.signIn',
  'accounts.signOut',
  'accounts.remove',
  'accounts.setActive',
  'demo.start',
  'settings.get',
  'settings.set',
  'exports.list',
  'exports.generate',
  'exports.cancel',
  'exports.retry',
  'exports.download',
  'exports.dismiss',
  'files.getFolder',
  'files.setFolder',
  'library.list',
  'library.reverify',
  'library.open',
  'library.reveal',
  'library.verifyFile',
  'accounts.secondFactor',
  'accounts.sendSms',
  'accounts.cancelChallenge',
  'accounts.update',
  'accounts.test',
  'accounts.detectRelease',
  'accounts.removalPlan',
  'accounts.accessToken',
  'accounts.setRemember',
  'accounts.impersonate',
  'accounts.stopImpersonation',
  'accounts.cancelReauth',
  'accounts.requestPasswordReset',
  'accounts.openWindow',
  'links.open',
  'links.complete',
  'links.dismiss',
  'drafts.get',
  'drafts.save',
  'drafts.delete',
  'drafts.list',
  'saq.evidence.attach',
  'saq.evidence.list',
  'saq.evidence.remove',
  'saq.evidence.link',
  'saq.evidence.attachReport',
  'saq.evidence.attachFindings',
  'saq.auditBundle',
  'connectivity.get',
  'connectivity.setWorkOffline',
  'connectivity.network',
  'connectivity.check',
  'cache.status',
  'cache.clear',
  'outbox.list',
  'outbox.retry',
  'outbox.discard',
  'csv.export',
  'csv.reveal',
  'changes.snapshots',
  'changes.compare',
  'changes.exportCsv',
  'views.export',
  'views.import',
  'bulk.start',
  'bulk.list',
  'bulk.get',
  'bulk.cancel',
  'bulk.retry',
  'bulk.dismiss',
  'since.counts',
  'since.left',
  'since.reviewed',
  'remediation.get',
  'remediation.set',
  'trends.daily',
] as const

/** One request channel name. */
export type ChannelName = (typeof CHANNEL_NAMES)[number]

/** Names of every event main pushes to the renderer. */
export const EVENT_NAMES = [
  'accounts.changed',
  'connectivity',
  'keychain.status',
  'exports.changed',
  'library.changed',
  'accounts.reauthRequired',
  'links.opened',
  'connectivity.mode',
  'outbox.changed',
  'notifications.arrived',
  'scans.runEnded',
  'changes.snapshotTaken',
  'bulk.changed',
  'csv.progress',
] as const

/** One event name. */
export type EventName = (typeof EVENT_NAMES)[number]

/** The IPC channel that carries event `name` (prefixed so requests and events never collide). */
export function eventChannel(name: EventName): string {
  return `event:${name}`
}

/** The IPC channel that carries request `name`. */
export function requestChannel(name: ChannelName): string {
  return `call:${name}`
}

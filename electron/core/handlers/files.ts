import type { HandlerTable } from './dispatch'
import type { HandlerContext } from './context'
import { fail } from '@contract/errors'
import { folderChoices } from '../exports/folder-choices'
import { checkFolder, refuseRendererPath } from '../exports/folders'

type ExportChannels =
  | 'exports.list'
  | 'exports.generate'
  | 'exports.cancel'
  | 'exports.retry'
  | 'exports.download'
  | 'exports.dismiss'
type LibraryChannels =
  'library.list' | 'library.reverify' | 'library.open' | 'library.reveal' | 'library.verifyFile'

/** exports.*: the per-account tray of generate → download → verify jobs. */
export function exportHandlers(ctx: HandlerContext): Pick<HandlerTable, ExportChannels> {
  const jobs = ctx.exports.jobs
  return {
    'exports.list': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return jobs.list(accountId)
    },
    'exports.generate': async (input) => {
      ctx.accounts.row(input.accountId)
      return jobs.generate(input)
    },
    'exports.cancel': async ({ jobId }) => jobs.cancel(jobId),
    'exports.retry': async ({ jobId }) => jobs.retry(jobId),
    'exports.download': async ({ jobId, saveAs }) => jobs.download(jobId, saveAs === true),
    'exports.dismiss': async ({ jobId }) => jobs.dismiss(jobId),
  }
}

/** files.getFolder / files.setFolder / files.folderChoices: each account's download folder. */
export function folderHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'files.getFolder' | 'files.setFolder' | 'files.folderChoices'> {
  const folders = ctx.exports.folders
  return {
    'files.getFolder': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      return { folder: folders.get(accountId) }
    },
    // Electron: the folder comes only from the OS dialog opened here (a path from the renderer is
    // refused). Browser mode: a typed folder inside the user's home, the temp folder or one of the
    // account's download folders (DownloadFolders.checkTyped), then absolute, existing, writable.
    'files.setFolder': async ({ accountId, folder }) => {
      const row = ctx.accounts.row(accountId)
      refuseRendererPath(ctx.mode, folder, 'folder', 'download folder')
      const current = folders.get(accountId)
      if (folder !== undefined) await folders.checkTyped(accountId, folder, 'download folder')
      const chosen =
        folder ??
        (await ctx.host.pickFolder(
          `Choose where to save the reports of “${row.label}”`,
          current ?? undefined,
        ))
      if (!chosen) return { folder: current }
      const real = await checkFolder(chosen)
      await folders.refuseOwn(real, 'download folder')
      folders.set(accountId, real)
      return { folder: real }
    },
    // Browser mode only: the desktop app chooses folders in the OS dialog (files.setFolder).
    'files.folderChoices': async ({ accountId }) => {
      ctx.accounts.row(accountId)
      if (ctx.mode !== 'browser')
        fail('FORBIDDEN', 'The desktop app chooses folders in the system’s folder dialog.')
      const ids = ctx.accountsRepo.list().map((a) => a.id)
      return folderChoices(folders, accountId, ids)
    },
  }
}

/** library.*: the file ledger, re-verification, opening files and "Verify a file…". */
export function libraryHandlers(ctx: HandlerContext): Pick<HandlerTable, LibraryChannels> {
  const library = ctx.exports.library
  return {
    'library.list': async (filter) => library.list(filter),
    'library.reverify': async ({ entryId, mode }) => library.reverify(entryId, mode),
    'library.open': async ({ entryId }) => library.open(entryId),
    'library.reveal': async ({ entryId }) => library.reveal(entryId),
    'library.verifyFile': async (input) => {
      ctx.accounts.row(input.accountId)
      return library.verifyFile(input, ctx.mode)
    },
  }
}

type SaqFileChannels =
  | 'saq.evidence.attach'
  | 'saq.evidence.list'
  | 'saq.evidence.remove'
  | 'saq.evidence.link'
  | 'saq.evidence.attachReport'
  | 'saq.evidence.attachFindings'
  | 'saq.auditBundle'

/** saq.evidence.* and saq.auditBundle: SAQ evidence files and audit bundles on local disk. */
export function saqFileHandlers(ctx: HandlerContext): Pick<HandlerTable, SaqFileChannels> {
  const saq = ctx.exports.saq
  return {
    'saq.evidence.attach': async (input) => {
      ctx.accounts.row(input.accountId)
      return saq.attach(input, ctx.mode)
    },
    'saq.evidence.list': async ({ accountId, saqKey }) => {
      ctx.accounts.row(accountId)
      return saq.list(accountId, saqKey)
    },
    'saq.evidence.remove': async ({ entryId }) => saq.remove(entryId),
    'saq.evidence.link': async ({ accountId, draftKey, saqId }) => {
      ctx.accounts.row(accountId)
      return saq.link(accountId, draftKey, saqId)
    },
    'saq.evidence.attachReport': async (input) => {
      ctx.accounts.row(input.accountId)
      return saq.attachReport(input)
    },
    'saq.evidence.attachFindings': async (input) => {
      ctx.accounts.row(input.accountId)
      return saq.attachFindings(input)
    },
    'saq.auditBundle': async ({ accountId, saqIds, auditEvents }) => {
      ctx.accounts.row(accountId)
      return saq.auditBundle(accountId, saqIds, { auditEvents: auditEvents === true })
    },
  }
}

/** Every handler of the files part (exports, folders, library, SAQ files). */
export function filesHandlers(ctx: HandlerContext) {
  return {
    ...exportHandlers(ctx),
    ...folderHandlers(ctx),
    ...libraryHandlers(ctx),
    ...saqFileHandlers(ctx),
  }
}

import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fail } from '@contract/errors'
import { realPathOf } from '../files/confined'
import type { SettingsRepo } from '../store/settings-repo'

const folderKey = (accountId: string) => `download_folder:${accountId}`
// Folders the user chose as the account's download folder (files.setFolder, or the folder dialog
// of a first download): with the current one, the only folders besides the user's own where
// browser mode takes a typed path.
const chosenKey = (accountId: string) => `download_folders_chosen:${accountId}`
// Folders a download of the account was saved to through the desktop's "Save as…" dialog (and,
// before the chosen list, every folder a file was saved to): files recorded there may be opened.
const knownKey = (accountId: string) => `download_folders_known:${accountId}`
const MAX_KNOWN = 50

/** Extensions ScanDesk ever opens with the OS: the document types it downloads. */
export const DOCUMENT_EXTENSIONS = ['.pdf', '.csv'] as const

/**
 * Extensions of SAQ evidence files ScanDesk opens with the OS: documents and images only (never
 * anything the OS would run). Any evidence file can still be shown in its folder.
 */
export const EVIDENCE_OPEN_EXTENSIONS = [
  '.pdf',
  '.csv',
  '.txt',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.md',
  '.log',
  '.json',
  '.conf',
  '.cfg',
  '.yaml',
  '.yml',
  '.xml',
] as const

/**
 * Checks that `folder` is an absolute, existing, writable directory and returns its real path.
 * Throws FILE_NOT_FOUND, VALIDATION or PERMISSION_DENIED with a message for the user.
 */
export async function checkFolder(folder: string): Promise<string> {
  if (!path.isAbsolute(folder)) fail('VALIDATION', 'The download folder must be an absolute path.')
  let real: string
  try {
    real = await fs.realpath(folder)
  } catch {
    fail('FILE_NOT_FOUND', `The folder ${folder} does not exist.`)
  }
  const stat = await fs.stat(real)
  if (!stat.isDirectory()) fail('VALIDATION', `${folder} is not a folder.`)
  try {
    await fs.access(real, fs.constants.W_OK | fs.constants.X_OK)
  } catch {
    fail('PERMISSION_DENIED', `ScanDesk may not write into ${folder}. Choose another folder.`)
  }
  return real
}

/** True when `child` is `parent` or lies inside it (both resolved, no `..` escape). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** Where the host runs: Electron has OS dialogs, browser mode takes typed paths. */
export type HostMode = 'electron' | 'browser'

/**
 * The user's own folders where browser mode takes a typed path (besides the account's download
 * folders): the home directory and the OS temp directory.
 */
export function defaultUserFolders(): string[] {
  return [os.homedir(), os.tmpdir()]
}

/**
 * Electron: folders and files come only from the OS dialogs main opens, so a path sent by the
 * renderer is refused (FORBIDDEN). `dialog` is the dialog ScanDesk opens instead, `what` what the
 * user chooses in it ("download folder", "file to verify", "evidence file"). Browser mode: no-op.
 */
export function refuseRendererPath(
  mode: HostMode,
  given: string | undefined,
  dialog: 'folder' | 'file',
  what: string,
): void {
  if (mode === 'electron' && given !== undefined)
    fail(
      'FORBIDDEN',
      `ScanDesk opens the ${dialog} dialog itself: choose the ${what} there (the desktop app does not take a typed or sent path).`,
    )
}

/** Per-account download folders kept in the settings table. */
export class DownloadFolders {
  constructor(
    private readonly settings: SettingsRepo,
    /** The user's home (and temp) folder; tests give a temporary folder as "home". */
    private readonly userFolders: () => string[] = defaultUserFolders,
    /** ScanDesk's own data folder(s): never a place to read a file from or save one into. */
    private readonly ownFolders: () => string[] = () => [],
  ) {}

  /**
   * Browser mode: a typed path must be absolute and lie inside the user's home folder, the temp
   * folder or a folder the user chose as one of the account's download folders — judged on its
   * real path (every link resolved, roots too; a path that does not exist yet by the real path of
   * its nearest existing folder, a link on the way that leads nowhere refused), so a link cannot
   * lead out. A path that does not exist is judged by where it would be, so a refusal does not
   * tell whether something exists elsewhere. ScanDesk's own data folder is refused (refuseOwn).
   * Returns the real path; throws VALIDATION or FORBIDDEN naming the rule. Whoever opens the path
   * afterwards proves it still leads there (files/confined.ts).
   */
  async checkTyped(accountId: string, typed: string, what: string): Promise<string> {
    if (!path.isAbsolute(typed)) fail('VALIDATION', `The ${what} must be an absolute path.`)
    const target = await realPathOf(path.resolve(typed), typed)
    const roots = await Promise.all(
      [...this.userFolders(), ...this.chosen(accountId)].map((root) =>
        fs.realpath(path.resolve(root)).catch(() => null),
      ),
    )
    if (!roots.some((root) => root !== null && isInside(root, target)))
      fail(
        'FORBIDDEN',
        `In browser mode ScanDesk takes a typed ${what} only inside your home folder, the temp folder or one of this account’s download folders (links resolved); ${typed} is not.`,
      )
    await this.refuseOwn(target, what)
    return target
  }

  /**
   * Refuses (FORBIDDEN) a path inside ScanDesk's own data folder, typed or chosen in a dialog:
   * its database, offline copy and keys are never imported from, exported to or verified.
   * `real` is a real path (or one judged by realPathOf).
   */
  async refuseOwn(real: string, what: string): Promise<void> {
    for (const own of this.ownFolders()) {
      const resolved = path.resolve(own)
      const ownReal = await fs.realpath(resolved).catch(() => resolved)
      if (isInside(ownReal, real))
        fail(
          'FORBIDDEN',
          `The ${what} may not lie in ScanDesk’s own data folder (${own}): ScanDesk keeps its database and keys there and never reads or saves your files in it. Choose another place.`,
        )
    }
  }

  /** The real path of a file or folder the user chose in a dialog, refused in the data folder. */
  async checkPicked(picked: string, what: string): Promise<string> {
    const real = await realPathOf(path.resolve(picked), picked)
    await this.refuseOwn(real, what)
    return real
  }

  /** The user's home folder (the first of the user's own folders). */
  homeFolder(): string {
    return this.userFolders()[0] ?? os.homedir()
  }

  /** The account's download folder, or null when none was chosen. */
  get(accountId: string): string | null {
    const value = this.settings.get<unknown>(folderKey(accountId), null)
    return typeof value === 'string' && value ? value : null
  }

  /**
   * Sets (after checkFolder) the account's download folder: the user chose it as one, so typed
   * paths inside it are taken from now on (checkTyped), and files in it may be opened.
   */
  set(accountId: string, folder: string): void {
    this.settings.set(folderKey(accountId), folder)
    const chosen = this.list(chosenKey(accountId)).filter((f) => f !== folder)
    this.settings.set(chosenKey(accountId), [folder, ...chosen].slice(0, MAX_KNOWN))
  }

  /**
   * Records a folder the user saved a download of this account to in the desktop's "Save as…"
   * dialog, so the file can be opened and shown later (openable). Never a root for typed paths:
   * only folders chosen as download folders are (set).
   */
  remember(accountId: string, folder: string): void {
    const known = this.list(knownKey(accountId)).filter((f) => f !== folder)
    this.settings.set(knownKey(accountId), [folder, ...known].slice(0, MAX_KNOWN))
  }

  /** The folders the user chose as the account's download folder (the current one first). */
  chosen(accountId: string): string[] {
    const current = this.get(accountId)
    const list = this.list(chosenKey(accountId))
    return current && !list.includes(current) ? [current, ...list] : list
  }

  /** Every folder this account's files were saved to (the chosen ones first). */
  known(accountId: string): string[] {
    const chosen = this.chosen(accountId)
    return [...chosen, ...this.list(knownKey(accountId)).filter((f) => !chosen.includes(f))]
  }

  private list(key: string): string[] {
    const value = this.settings.get<unknown>(key, [])
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  }

  /** Forgets an account's folders (the account was removed). */
  forget(accountId: string): void {
    this.settings.set(folderKey(accountId), undefined)
    this.settings.set(chosenKey(accountId), undefined)
    this.settings.set(knownKey(accountId), undefined)
  }

  /**
   * The real path of a file that ScanDesk may hand to the OS: a file with one of `extensions`
   * (default .pdf and .csv; 'any' to reveal an evidence file) that exists inside one of the
   * account's known download folders (its Quarantine and SAQ folders lie inside), reached without
   * a symbolic link below that folder (a folder or a file replaced by a link since the download is
   * refused). Checked at every open and reveal. Throws otherwise.
   */
  async openable(
    accountId: string,
    file: string,
    extensions: readonly string[] | 'any' = DOCUMENT_EXTENSIONS,
  ): Promise<string> {
    const ext = path.extname(file).toLowerCase()
    if (extensions !== 'any' && !extensions.includes(ext))
      fail(
        'FORBIDDEN',
        extensions === DOCUMENT_EXTENSIONS
          ? 'ScanDesk opens only PDF and CSV report files.'
          : `ScanDesk opens only documents and images (${extensions.map((e) => e.slice(1)).join(', ')}); use “Show in folder” for this file.`,
      )
    const resolved = path.resolve(file)
    let real: string
    try {
      real = await fs.realpath(resolved)
    } catch {
      fail('FILE_NOT_FOUND', `The file ${file} is no longer there.`)
    }
    if (!(await fs.stat(real)).isFile()) fail('FILE_NOT_FOUND', `${file} is not a file.`)
    for (const folder of this.known(accountId)) {
      const realFolder = await fs.realpath(folder).catch(() => null)
      if (!realFolder || !isInside(realFolder, real)) continue
      const base = isInside(path.resolve(folder), resolved)
        ? path.resolve(folder)
        : isInside(realFolder, resolved)
          ? realFolder
          : null
      if (base !== null && path.join(realFolder, path.relative(base, resolved)) !== real)
        fail(
          'FORBIDDEN',
          `The path to ${file} now goes through a symbolic link (a folder or the file was replaced since the download), so ScanDesk does not open it. Remove the link and download the file again.`,
        )
      return real
    }
    return fail('FORBIDDEN', 'ScanDesk opens only files inside this account’s download folders.')
  }
}

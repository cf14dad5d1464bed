import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fail } from '@contract/errors'
import type { SettingsRepo } from '../store/settings-repo'

const folderKey = (accountId: string) => `download_folder:${accountId}`
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
  ) {}

  /**
   * Browser mode: a typed path must be absolute and lie inside the user's home folder, the temp
   * folder or one of the account's known download folders — judged on its real path (every link
   * resolved, roots too), so a link cannot lead out. A path that does not exist is judged by where
   * it would be, so a refusal does not tell whether something exists elsewhere. Returns the real
   * path (the resolved one when it does not exist); throws VALIDATION or FORBIDDEN naming the rule.
   */
  async checkTyped(accountId: string, typed: string, what: string): Promise<string> {
    if (!path.isAbsolute(typed)) fail('VALIDATION', `The ${what} must be an absolute path.`)
    const resolved = path.resolve(typed)
    const real = await fs.realpath(resolved).catch(() => null)
    const target = real ?? resolved
    const roots = await Promise.all(
      [...this.userFolders(), ...this.known(accountId)].map((root) =>
        fs.realpath(path.resolve(root)).catch(() => null),
      ),
    )
    if (!roots.some((root) => root !== null && isInside(root, target)))
      fail(
        'FORBIDDEN',
        `In browser mode ScanDesk takes a typed ${what} only inside your home folder, the temp folder or one of this account’s download folders (links resolved); ${typed} is not.`,
      )
    return target
  }

  /** The account's download folder, or null when none was chosen. */
  get(accountId: string): string | null {
    const value = this.settings.get<unknown>(folderKey(accountId), null)
    return typeof value === 'string' && value ? value : null
  }

  /** Sets (after checkFolder) the account's download folder and remembers it as known. */
  set(accountId: string, folder: string): void {
    this.settings.set(folderKey(accountId), folder)
    this.remember(accountId, folder)
  }

  /** Records a folder a file of this account was saved to ("Save as…" included). */
  remember(accountId: string, folder: string): void {
    const known = this.known(accountId).filter((f) => f !== folder)
    this.settings.set(knownKey(accountId), [folder, ...known].slice(0, MAX_KNOWN))
  }

  /** Every folder this account's files were saved to (the current one first). */
  known(accountId: string): string[] {
    const value = this.settings.get<unknown>(knownKey(accountId), [])
    const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
    const current = this.get(accountId)
    return current && !list.includes(current) ? [current, ...list] : list
  }

  /** Forgets an account's folders (the account was removed). */
  forget(accountId: string): void {
    this.settings.set(folderKey(accountId), undefined)
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

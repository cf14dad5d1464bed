// An account's asset context as a JSON file (issue 37 §2): exported where the user chooses (the
// save dialog, or a typed path judged like every path in browser mode), written atomically;
// imported from a file the user chooses, checked whole against the file's schema, then applied to
// one or several accounts in one transaction (an MSSP's standard rules), or refused whole.
import {
  ASSET_FILE_VERSION,
  MAX_ASSET_FILE_BYTES,
  parseAssetFile,
  type AssetContextFile,
} from '@contract/intel/asset-context'
import { fail } from '@contract/errors'
import type { DownloadFolders, HostMode } from '../exports/folders'
import type { HostServices } from '../host'
import { readChosenFile } from '../files/chosen-file'
import { safeFileName } from '../files/names'
import type { TempJournal } from '../files/pending-temps'
import { saveJsonFile } from '../files/save-target'
import type { AssetContextRepo } from './asset-context-repo'

export interface AssetFilesDeps {
  mode: HostMode
  host: Pick<HostServices, 'pickSaveAs' | 'pickFile' | 'userFolders'>
  folders: DownloadFolders
  repo: AssetContextRepo
  accountLabel(accountId: string): string
  now(): Date
  journal?: TempJournal
}

const MIB = MAX_ASSET_FILE_BYTES / 1024 / 1024

/** Export and import of asset-context files. */
export class AssetFiles {
  constructor(private readonly deps: AssetFilesDeps) {}

  /** `Asset context - <account label> - <YYYY-MM-DD>.json`, safe for every OS. */
  defaultName(accountId: string): string {
    const date = this.deps.now().toISOString().slice(0, 10)
    return safeFileName(`Asset context - ${this.deps.accountLabel(accountId)} - ${date}.json`)
  }

  async export(req: {
    accountId: string
    path?: string
    replace?: boolean
  }): Promise<{ saved: true; path: string } | { saved: false; suggestedPath?: string }> {
    // Read (and so the key asked for) before a dialog opens.
    const doc = await this.deps.repo.get(req.accountId)
    const file: AssetContextFile = { scandeskAssetContext: ASSET_FILE_VERSION, ...doc }
    return saveJsonFile(this.deps, req, this.defaultName(req.accountId), file, 'asset-context file')
  }

  async import(req: {
    accountIds: string[]
    path?: string
  }): Promise<
    | { imported: true; accounts: number; rules: number; targets: number; hosts: number }
    | { imported: false; suggestedFolder?: string }
  > {
    const chosen = await readChosenFile(
      this.deps,
      { accountId: req.accountIds[0]!, ...(req.path !== undefined ? { path: req.path } : {}) },
      {
        what: 'asset-context file',
        pickTitle: 'Choose a ScanDesk asset-context file to import',
        maxBytes: MAX_ASSET_FILE_BYTES,
        tooLarge: `This file is larger than ${MIB} MiB: it is not an asset-context file. Nothing was imported.`,
      },
    )
    if (!chosen.read) return { imported: false, ...chosen }
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(chosen.bytes)
    } catch {
      return fail('VALIDATION', 'The file is not UTF-8 text. Nothing was imported.')
    }
    const parsed = parseAssetFile(text)
    if (!parsed.ok) fail('VALIDATION', parsed.message)
    const { file } = parsed
    await this.deps.repo.apply(req.accountIds, file)
    return {
      imported: true,
      accounts: req.accountIds.length,
      rules: file.rules.length,
      targets: Object.keys(file.targets).length,
      hosts: Object.keys(file.hosts).length,
    }
  }
}

import type { FileHandle } from 'node:fs/promises'
import type { DocumentFormat, TransferProgress } from '@contract/files'
import type { AccountClient } from '../http/client'
import type { DownloadOp } from './service'

/** What the export jobs ask of the files module (electron/core/files), injectable for tests. */
export interface FileOps {
  /** Streams a document into `folder` (hash in the same pass, no partial file on failure). */
  downloadToFolder(req: {
    client: AccountClient
    /** A report's download, or `saq.show` with query {format: 'pdf'} (an SAQ's PDF). */
    opId: DownloadOp
    input: { path: { id: string }; query: { format: DocumentFormat } }
    folder: string
    fileName: string
    format: DocumentFormat
    signal?: AbortSignal
    onProgress?: (p: TransferProgress) => void
    /** The hard maximum of the download (the "largest download" setting). */
    maxBytes?: number
  }): Promise<{ path: string; size: number; sha256: string }>
  /** Our file name for a document (sanitized for every OS). */
  documentFileName(d: { name: string; id: string; format: DocumentFormat; date: Date }): string
  /** Our file name for an SAQ's PDF: `SAQ <type> - <name> - <organization> - <YYYY-MM-DD>.pdf`. */
  saqFileName(d: { saqType: string; name: string; organization: string; date: Date }): string
  /** SHA-256 and size of a file on disk (with `opened`: of that open file, left open). */
  hashFile(path: string, opened?: FileHandle): Promise<{ sha256: string; size: number }>
  /** Moves a file into <folder>/Quarantine/; returns its new path. */
  quarantineFile(path: string, folder: string): Promise<string>
}

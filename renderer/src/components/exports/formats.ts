import { documentFormat, type DocumentFormat, type DocumentKind } from '@contract/files'

export type { DocumentFormat, DocumentKind }

/** Every format the contract offers, in the order the generate dialog lists them. */
export const DOCUMENT_FORMATS: readonly DocumentFormat[] = documentFormat.options

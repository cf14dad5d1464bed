/** The write-only fields of a credential's body. */
export const SECRET_FIELDS = ['password', 'private_key', 'passphrase', 'community'] as const
export type SecretField = (typeof SECRET_FIELDS)[number]

/** What each kind of credential logs in with (the service requires these on create). */
export interface CredentialKind {
  label: string
  /** The secret the kind needs. */
  secret: SecretField
  secretLabel: string
  /** Further secrets it may take (a key's passphrase). */
  optional: SecretField[]
  username: boolean
}

export const CREDENTIAL_KINDS: Record<string, CredentialKind> = {
  ssh_password: {
    label: 'an SSH password credential',
    secret: 'password',
    secretLabel: 'Password',
    optional: [],
    username: true,
  },
  ssh_key: {
    label: 'an SSH key credential',
    secret: 'private_key',
    secretLabel: 'Private key',
    optional: ['passphrase'],
    username: true,
  },
  windows_smb: {
    label: 'a Windows (SMB) credential',
    secret: 'password',
    secretLabel: 'Password',
    optional: [],
    username: true,
  },
  snmp_community: {
    label: 'an SNMP community credential',
    secret: 'community',
    secretLabel: 'Community',
    optional: [],
    username: false,
  },
}

/** The secret fields a kind shows (none until a kind is chosen). */
export function secretsOf(kind: CredentialKind | null): SecretField[] {
  return kind ? [kind.secret, ...kind.optional] : []
}

import { z } from 'zod'
import { SINCE_5_4 } from '../releases'
import {
  byIdsFilter,
  byId,
  collection,
  dateTime,
  deletedResponse,
  description,
  listQuery,
  name,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** What a credential logs in with during an authenticated scan (decided here). */
export const credentialKind = z.enum(['ssh_password', 'ssh_key', 'windows_smb', 'snmp_community'])

/**
 * Credential attributes (decided here). The secret (password, private key, passphrase,
 * community string) is write-only: no answer ever carries it, only `has_secret`.
 */
export const credentialAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  kind: credentialKind,
  username: z.string().nullish(),
  has_secret: z.boolean(),
  secret_updated_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

const secretFields = {
  password: z.string().min(1).max(1024).optional(),
  private_key: z.string().min(1).max(16_384).optional(),
  passphrase: z.string().max(1024).optional(),
  community: z.string().min(1).max(255).optional(),
}

/** Body of credential create: the secret field the kind needs is required (checked by the service). */
export const credentialCreateBody = z.strictObject({
  name,
  description: description.optional(),
  kind: credentialKind,
  username: z.string().trim().min(1).max(255).optional(),
  ...secretFields,
})

/** Body of credential update: any subset; a secret field given replaces the stored one. */
export const credentialUpdateBody = credentialCreateBody.partial()

const g = 'credentials' as const

/** Credentials for authenticated scanning: list, show, create, update, delete. */
export const credentialsOperations = defineGroup([
  defineOperation({
    id: 'credentials.list',
    group: g,
    method: 'GET',
    path: '/v2/credentials',
    query: listQuery({ ...byIdsFilter, kind: credentialKind.optional() }),
    response: collection(credentialAttributes),
    releases: SINCE_5_4,
    summary: 'List scan credentials (never their secrets)',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'credentials' },
    example: {},
  }),
  defineOperation({
    id: 'credentials.show',
    group: g,
    method: 'GET',
    path: '/v2/credentials/{id}',
    pathParams: byId,
    response: single(credentialAttributes),
    releases: SINCE_5_4,
    summary: 'Show one scan credential (never its secret)',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'credentials' },
    example: { path: { id: 'crd-001' } },
  }),
  defineOperation({
    id: 'credentials.create',
    group: g,
    method: 'POST',
    path: '/v2/credentials',
    body: credentialCreateBody,
    response: single(credentialAttributes),
    releases: SINCE_5_4,
    summary: 'Create a scan credential; its secret is write-only',
    source: 'decided',
    successStatus: 201,
    sandbox: { kind: 'custom' },
    example: {
      body: {
        name: 'Linux fleet',
        kind: 'ssh_password',
        username: 'scanner',
        password: 'correct-horse-battery',
      },
    },
  }),
  defineOperation({
    id: 'credentials.update',
    group: g,
    method: 'PUT',
    path: '/v2/credentials/{id}',
    pathParams: byId,
    body: credentialUpdateBody,
    response: single(credentialAttributes),
    releases: SINCE_5_4,
    summary: 'Update a scan credential or replace its secret',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'crd-001' }, body: { password: 'rotated-secret-2' } },
  }),
  defineOperation({
    id: 'credentials.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/credentials/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_4,
    summary: 'Delete a scan credential',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'credentials' },
    example: { path: { id: 'crd-004' } },
  }),
])

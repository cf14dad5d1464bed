// Prepared statements kept per SQL text: a repository that runs the same statements thousands of
// times (a bulk run's writes, every API call's account lookup) prepares each one once.
import type { Statement } from 'better-sqlite3'
import type { Db } from './database'

/** Returns `sql`'s statement on `db`, prepared on its first use. */
export type Statements = (sql: string) => Statement

export function statementCache(db: Db): Statements {
  const prepared = new Map<string, Statement>()
  return (sql) => {
    let statement = prepared.get(sql)
    if (!statement) prepared.set(sql, (statement = db.prepare(sql)))
    return statement
  }
}

import { eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/database';
import { parts } from '../db/schema';
import { conflict, notFound } from '../errors';
import { isId } from '../services/paging';

/**
 * Supersession: a part replaced by a newer one (`parts.replaced_by_id`), sometimes over several steps. The current
 * part is the end of the chain. Chains are followed at most `maxChainSteps` steps and never around a cycle (which
 * `setReplacement` refuses to make; data written around it still cannot loop the query).
 */
export const maxChainSteps = 20;

/** The current part of each of `partIds` (itself when it is not replaced): a map from each id to its current id. */
export async function resolveCurrentIds(db: DbOrTx, partIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(partIds.filter(isId))];
  if (!ids.length) return new Map();
  // Each step reads the next part by its primary key (the LIMIT keeps it a lookup per row of the chain): joined
  // plainly, a thousand ids made the planner hash all of `parts` at every step, 0.6 s at 200,000 parts
  // (docs/performance.md, "Quick order's check").
  const rows = await rowsOf<{ start_id: string; id: string }>(
    db,
    sql`
    with recursive chain (start_id, id, replaced_by_id, steps, path) as (
      select p.id, p.id, p.replaced_by_id, 0, array[p.id]
        from parts p where p.id = any(${sql.param(ids)}::uuid[])
      union all
      select c.start_id, n.id, n.replaced_by_id, c.steps + 1, c.path || n.id
        from chain c
        cross join lateral (select n.id, n.replaced_by_id from parts n where n.id = c.replaced_by_id limit 1) n
        where c.replaced_by_id is not null and c.steps < ${maxChainSteps} and n.id <> all(c.path)
    )
    select distinct on (start_id) start_id::text, id::text from chain order by start_id, steps desc`,
  );
  return new Map(rows.map((row) => [row.start_id, row.id]));
}

/** The current part of `partId`: the end of its chain of replacements (itself when it is not replaced). */
export async function resolveCurrent(db: DbOrTx, partId: string): Promise<string> {
  const current = (await resolveCurrentIds(db, [partId])).get(partId);
  if (!current) throw notFound('Part');
  return current;
}

const named = (part: { sku: string; name: string }) => `${part.sku} (${part.name})`;

/** Changes of supersession queue on this transaction lock, so two that would close a loop together cannot both pass. */
export async function lockSupersession(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('parts.replaced_by_id'))`);
}

/**
 * Why `partId` cannot be replaced by `replacedById` (null: by nothing), checked under `lockSupersession`: a part
 * that does not exist (`missing`: which of the two), or a loop (`loop`: the sentence naming the parts, when the new
 * part is the part itself or already leads back to it). Null when it may.
 */
export async function replacementProblem(
  tx: DbOrTx,
  partId: string,
  replacedById: string | null,
): Promise<{ missing: 'part' | 'replacement' } | { loop: string } | null> {
  const ids = replacedById === null ? [partId] : [partId, replacedById];
  if (!isId(partId)) return { missing: 'part' };
  if (replacedById !== null && !isId(replacedById)) return { missing: 'replacement' };
  const found = await tx
    .select({ id: parts.id, sku: parts.sku, name: parts.name })
    .from(parts)
    .where(inArray(parts.id, ids));
  const part = found.find((p) => p.id === partId);
  const replacement = found.find((p) => p.id === replacedById);
  if (!part) return { missing: 'part' };
  if (replacedById !== null && !replacement) return { missing: 'replacement' };
  if (!replacement) return null;
  if (replacement.id === part.id) return { loop: `${named(part)} cannot replace itself` };
  const loop = await chainBackTo(tx, replacement.id, part.id);
  if (!loop) return null;
  return {
    loop:
      `${named(part)} cannot be replaced by ${named(replacement)}: ${loop.map(named).join(' is replaced by ')}, ` +
      'so the chain would go round in a circle',
  };
}

/**
 * Says that `partId` is replaced by `replacedById` (null: by nothing, it is current again). Refused (CONFLICT,
 * naming the parts) when the new part is the part itself or already leads back to it: a chain never loops.
 * Changes of supersession queue on one transaction lock (`lockSupersession`).
 */
export async function setReplacement(db: DbOrTx, partId: string, replacedById: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSupersession(tx);
    const problem = await replacementProblem(tx, partId, replacedById);
    if (problem && 'missing' in problem) throw notFound('Part');
    if (problem) throw conflict(problem.loop);
    await tx.update(parts).set({ replacedById }).where(eq(parts.id, partId));
  });
}

/** The chain from `fromId` when it reaches `toId` (the parts on it, in order), or null when it does not. */
async function chainBackTo(db: DbOrTx, fromId: string, toId: string) {
  const rows = await rowsOf<{ path: string[] }>(
    db,
    sql`
    with recursive chain (id, steps, path) as (
      select ${fromId}::uuid, 0, array[${fromId}::uuid]
      union all
      select p.replaced_by_id, c.steps + 1, c.path || p.replaced_by_id
        from chain c join parts p on p.id = c.id
        where p.replaced_by_id is not null and c.steps < ${maxChainSteps} and p.replaced_by_id <> all(c.path)
    )
    select path::text[] as path from chain where id = ${toId}::uuid limit 1`,
  );
  if (!rows.length) return null;
  const path = rows[0].path;
  const names = await db
    .select({ id: parts.id, sku: parts.sku, name: parts.name })
    .from(parts)
    .where(inArray(parts.id, path));
  return path.map((id) => names.find((n) => n.id === id)!);
}

import { check, profileSchema } from '@partsyard/common';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import * as yup from 'yup';
import type { Db } from '../db/database';
import { orders, users, type UserRow } from '../db/schema';
import { releaseStock } from './stock';
import { badInput, conflict, forbidden, notFound } from '../errors';
import type { AccessTokens } from '../identity/accessTokens';
import type { Identity } from '../identity/firebaseIdentity';
import type { Client, RateLimiter } from '../http/rateLimit';
import { requireActor, requireAdmin, requireSelfOrAdmin, type Actor } from './actor';
import { validEmail } from './email';
import { isId, page, pageWithTotal } from './paging';

export type ProfileInput = yup.InferType<typeof profileSchema>;

function validProfile(input: unknown): Partial<ProfileInput> {
  const result = check(profileSchema, input ?? {});
  if (!result.ok) throw badInput(result.errors);
  // Keep only the fields that were given, so an omitted field keeps its value.
  return Object.fromEntries(Object.entries(result.value).filter(([, v]) => v !== undefined && v !== null));
}

export function createUsersService(deps: {
  db: Db;
  identity: Identity;
  tokens: AccessTokens;
  adminEmails: string[];
  rateLimits: RateLimiter;
}) {
  const { db, identity, tokens, adminEmails, rateLimits } = deps;

  async function byEmail(email: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.email, email));
    return user;
  }

  return {
    /** The caller behind an access token, with the role as the database has it now; null if the user is gone. */
    async actorFor(userId: string): Promise<Actor | null> {
      if (!isId(userId)) return null;
      const [user] = await db
        .select({ userId: users.id, email: users.email, role: users.role })
        .from(users)
        .where(eq(users.id, userId));
      return user ?? null;
    },

    /**
     * Exchanges a Firebase ID token for our access token, creating the user on first sign-in and saving
     * the profile fields given. `expectedEmail` (REST's PUT /user/{email}) must be the token's email.
     * Rate limited per client address (before the token is verified) and per email (after).
     */
    async signIn(
      idToken: string,
      profileInput: unknown,
      { expectedEmail, client }: { expectedEmail?: string; client?: Client } = {},
    ) {
      rateLimits.signInFrom(client);
      const identityInfo = await identity.verifyIdToken(idToken);
      if (expectedEmail !== undefined && validEmail(expectedEmail) !== identityInfo.email) {
        throw forbidden('The sign-in token belongs to another email');
      }
      rateLimits.signInAs(identityInfo.email);
      // Signing in saves what the form gave but never blanks what the profile already holds.
      const profile = Object.fromEntries(Object.entries(validProfile(profileInput)).filter(([, v]) => v !== ''));
      const role = adminEmails.includes(identityInfo.email) ? ('admin' as const) : undefined;
      const insertValues = {
        ...profile,
        email: identityInfo.email,
        firebaseUid: identityInfo.uid,
        name: profile.name || identityInfo.name,
        avatar: profile.avatar || identityInfo.picture,
        ...(role ? { role } : {}),
      };
      const [row] = await db
        .insert(users)
        .values(insertValues)
        .onConflictDoUpdate({
          target: users.email,
          set: { firebaseUid: identityInfo.uid, ...profile, ...(role ? { role } : {}), updatedAt: new Date() },
        })
        // xmax = 0 only on a freshly inserted row: tells an insert from an update in one statement.
        .returning({ id: users.id, inserted: sql<boolean>`(xmax = 0)` });
      const user = (await byEmail(identityInfo.email)) as UserRow;
      return {
        token: tokens.sign({ userId: user.id, email: user.email }),
        user,
        inserted: Boolean(row.inserted),
      };
    },

    async me(actor: Actor | null): Promise<UserRow> {
      const { userId } = requireActor(actor);
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user) throw notFound('User');
      return user;
    },

    /** A profile by email: the user themselves or an admin. */
    async profileByEmail(actor: Actor | null, email: string): Promise<UserRow> {
      requireSelfOrAdmin(actor, email);
      const user = await byEmail(validEmail(email));
      if (!user) throw notFound('User');
      return user;
    },

    async updateProfile(actor: Actor | null, input: unknown): Promise<UserRow> {
      const { userId } = requireActor(actor);
      const profile = validProfile(input);
      const [user] = await db
        .update(users)
        .set({ ...profile, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      if (!user) throw notFound('User');
      return user;
    },

    async listUsers(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      requireAdmin(actor);
      const { offset, limit } = page(args.offset, args.limit, 200, 50);
      return pageWithTotal(
        { offset, limit },
        () => db.select().from(users).orderBy(desc(users.createdAt), desc(users.id)).offset(offset).limit(limit),
        async () => (await db.select({ total: count() }).from(users))[0].total,
      );
    },

    /** Whether `email` is an admin: asked by that user, or by an admin. Unknown emails are not admins. */
    async isAdmin(actor: Actor | null, email: string): Promise<boolean> {
      requireSelfOrAdmin(actor, email);
      const user = await byEmail(validEmail(email));
      return user?.role === 'admin';
    },

    /** Makes `email` an admin. `modified` is false when it already was one. */
    async grantAdmin(actor: Actor | null, email: string): Promise<{ user: UserRow; modified: boolean }> {
      requireAdmin(actor);
      const target = validEmail(email);
      const [updated] = await db
        .update(users)
        .set({ role: 'admin', updatedAt: new Date() })
        .where(and(eq(users.email, target), eq(users.role, 'customer')))
        .returning();
      if (updated) return { user: updated, modified: true };
      const existing = await byEmail(target);
      if (!existing) throw notFound('User');
      return { user: existing, modified: false };
    },

    /**
     * Deletes a user and their sign-in account. Their unpaid orders are cancelled (stock given back); paid
     * orders, payments and reviews stay, detached from the account. The user's row is locked first (see
     * accountLock.ts): their orders and payments in flight finish before, later ones find the account gone,
     * so no unpaid order is left without its user and the stock of each cancelled one comes back once.
     */
    async deleteUser(actor: Actor | null, id: string): Promise<string> {
      const admin = requireAdmin(actor);
      if (!isId(id)) throw notFound('User');
      if (id === admin.userId) throw conflict('You cannot delete your own account');
      const deleted = await db.transaction(async (tx) => {
        const [found] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
        if (!found) throw notFound('User');
        // Their unpaid orders locked in id order, as deleting a part locks its orders, and the stock given back
        // part by part in id order, as another user's deletion does: two deletions wait, never deadlock.
        const unpaidOf = and(eq(orders.userId, id), eq(orders.status, 'unpaid'));
        await tx.select({ id: orders.id }).from(orders).where(unpaidOf).orderBy(orders.id).for('update');
        const unpaid = await tx
          .delete(orders)
          .where(unpaidOf)
          .returning({ partId: orders.partId, orderAmount: orders.orderAmount });
        const taken = new Map<string, number>();
        for (const { partId, orderAmount } of unpaid) {
          if (partId) taken.set(partId, (taken.get(partId) ?? 0) + orderAmount);
        }
        for (const partId of [...taken.keys()].sort()) await releaseStock(tx, partId, taken.get(partId) ?? 0);
        const [user] = await tx.delete(users).where(eq(users.id, id)).returning();
        return user;
      });
      if (deleted.firebaseUid) await identity.deleteAccount(deleted.firebaseUid);
      return id;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

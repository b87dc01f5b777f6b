import { check, imageUrl, profileSchema } from '@partsyard/common';
import { and, count, desc, eq, inArray, isNull, ne, not, or, sql } from 'drizzle-orm';
import * as yup from 'yup';
import { violatedConstraint, type Db, type Tx } from '../db/database';
import { orders, payments, reviews, users, type UserRow } from '../db/schema';
import { releaseStock } from './stock';
import { adminsOnly, badInput, conflict, forbidden, notFound } from '../errors';
import type { AccessTokens } from '../identity/accessTokens';
import type { Identity, VerifiedIdentity } from '../identity/firebaseIdentity';
import type { Client, RateLimiter } from '../rateLimits';
import { logger } from '../logger';
import { accountNamedBy } from './accountByEmail';
import { actorReader, type Actor, type ReadActor } from './actor';
import { authorize } from './rights';
import { validEmail } from './email';
import { isId, page, pageSizes, pageWithTotal } from './paging';

export type ProfileInput = yup.InferType<typeof profileSchema>;

function validProfile(input: unknown): Partial<ProfileInput> {
  const result = check(profileSchema, input ?? {});
  if (!result.ok) throw badInput(result.errors);
  // Keep only the fields that were given, so an omitted field keeps its value.
  return Object.fromEntries(Object.entries(result.value).filter(([, v]) => v !== undefined && v !== null));
}

export const emailTaken = 'This email address belongs to another account of this shop: sign in with that account';

/** A first sign-in of a Firebase account that another request is creating at the same moment: read it again. */
class SignInRace extends Error {}

export function createUsersService(deps: {
  db: Db;
  identity: Identity;
  tokens: AccessTokens;
  adminEmails: string[];
  rateLimits: RateLimiter;
  /** Every signed-in request asks who its caller is (a prepared statement, shared by the services). */
  readActor?: ReadActor;
}) {
  const { db, identity, tokens, adminEmails, rateLimits } = deps;
  const readActor = deps.readActor ?? actorReader(db);

  /** ADMIN_EMAILS makes an account admin only once Firebase says its owner proved the address. */
  const listedAdmin = (email: string | null, verified: boolean) =>
    email !== null && verified && adminEmails.includes(email);

  async function byId(id: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    return user;
  }

  /** Writes a user's profile fields (validated: name, phone, address, avatar, LinkedIn). */
  async function writeProfile(userId: string, input: unknown): Promise<UserRow> {
    const profile = validProfile(input);
    const [user] = await db
      .update(users)
      .set({ ...profile, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw notFound('User');
    return user;
  }

  /**
   * Locks every admin's row, in id order, and checks that the caller is still one of them. Every change to who is
   * admin (granting, revoking, deleting a user) takes this lock first, so two admins demoting or deleting each
   * other at once cannot both succeed (the second finds that it is no longer admin), and an admin demoted or
   * deleted while their grant was on its way makes nobody admin. FOR NO KEY UPDATE leaves orders and payments of
   * those admins (which lock their user FOR KEY SHARE) free to go on.
   */
  async function lockAdmins(tx: Tx, caller: Actor): Promise<void> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, 'admin'))
      .orderBy(users.id)
      .for('no key update');
    if (!rows.some((r) => r.id === caller.userId)) throw adminsOnly();
  }

  /**
   * Before `who` signs in with their address: a row of another Firebase account may still hold it (its owner
   * changed their email at Firebase, or deleted their account, and Firebase gave the address to `who`). Firebase
   * is asked about that account: if it still has the address, the sign-in is refused (409); otherwise the old
   * row lets the address go (it keeps its orders, role and profile, and gets its new address at its owner's
   * next sign-in), and a role that the address gave it through ADMIN_EMAILS goes with the address.
   */
  async function releaseStaleHolder(who: VerifiedIdentity): Promise<void> {
    const [holder] = await db
      .select({ id: users.id, firebaseUid: users.firebaseUid })
      .from(users)
      .where(and(eq(users.email, who.email), or(isNull(users.firebaseUid), ne(users.firebaseUid, who.uid))));
    if (!holder) return;
    const account = holder.firebaseUid ? await identity.lookupAccount(holder.firebaseUid) : null;
    if (account?.email === who.email) throw conflict(emailTaken);
    await db
      .update(users)
      .set({
        email: null,
        emailVerified: false,
        role: sql`case when ${users.adminSource} = 'admin_emails' then 'customer' else ${users.role} end`,
        adminSource: sql`case when ${users.adminSource} = 'admin_emails' then null else ${users.adminSource} end`,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, holder.id), eq(users.email, who.email)));
    logger.info('an email address moved to another Firebase account: the old account let it go', {
      userId: holder.id,
      accountGone: account === null,
    });
  }

  /** One attempt at writing the sign-in of `who` (see signIn). */
  async function writeSignIn(who: VerifiedIdentity, profile: Partial<ProfileInput>) {
    const admin = listedAdmin(who.email, who.emailVerified);
    return db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.firebaseUid, who.uid)).for('update');
      if (!current) {
        const [created] = await tx
          .insert(users)
          .values({
            ...profile,
            firebaseUid: who.uid,
            email: who.email,
            emailVerified: who.emailVerified,
            name: profile.name || who.name,
            // Firebase's picture (a Google photo) only if it is an address the shared rules accept.
            avatar: profile.avatar || (imageUrl.test(who.picture) ? who.picture : ''),
            ...(admin ? { role: 'admin' as const, adminSource: 'admin_emails' as const } : {}),
          })
          .onConflictDoNothing({ target: users.firebaseUid })
          .returning();
        if (!created) throw new SignInRace();
        if (admin) logger.info('ADMIN_EMAILS made an account admin', { userId: created.id });
        return { user: created, inserted: true };
      }
      const roleChange =
        admin && current.role === 'customer'
          ? { role: 'admin' as const, adminSource: 'admin_emails' as const }
          : !admin && current.adminSource === 'admin_emails'
            ? { role: 'customer' as const, adminSource: null }
            : {};
      const [user] = await tx
        .update(users)
        .set({ ...profile, email: who.email, emailVerified: who.emailVerified, ...roleChange, updatedAt: new Date() })
        .where(eq(users.id, current.id))
        .returning();
      if (roleChange.role) {
        logger.info(`ADMIN_EMAILS ${roleChange.role === 'admin' ? 'made an account admin' : 'took admin away'}`, {
          userId: user.id,
        });
      }
      return { user, inserted: false };
    });
  }

  /**
   * Exchanges a Firebase ID token for our access token, in two steps: the token is checked first (rate limited
   * per client address before it is verified, and per email after), and the step answered saves the profile and
   * signs in. The REST shim reads the request's body only between the two, so that a bad token is refused before
   * anything else is looked at.
   */
  async function beginSignIn(
    idToken: string,
    { expectedEmail, client }: { expectedEmail?: string; client?: Client } = {},
  ): Promise<(profileInput: unknown) => Promise<{ token: string; user: UserRow; inserted: boolean }>> {
    await rateLimits.signInFrom(client);
    const who = await identity.verifyIdToken(idToken);
    if (expectedEmail !== undefined && validEmail(expectedEmail) !== who.email) {
      throw forbidden('The sign-in token belongs to another email');
    }
    await rateLimits.signInAs(who.email);
    return async (profileInput) => {
      // Signing in saves what the form gave but never blanks what the profile already holds.
      const profile = Object.fromEntries(Object.entries(validProfile(profileInput)).filter(([, v]) => v !== ''));
      await releaseStaleHolder(who);
      for (let attempt = 1; ; attempt++) {
        try {
          const { user, inserted } = await writeSignIn(who, profile);
          return { token: tokens.sign({ userId: user.id, firebaseUid: who.uid }), user, inserted };
        } catch (error) {
          // Another sign-in took the address between the release and the write (it was just given to them).
          if (violatedConstraint(error) === 'users_email_key') throw conflict(emailTaken);
          if (!(error instanceof SignInRace) || attempt >= 3) throw error;
        }
      }
    };
  }

  /** Whether `email` is listed in ADMIN_EMAILS (where an admin's role must be taken away). */
  const listedInConfig = (email: string | null) => email !== null && adminEmails.includes(email);

  return {
    /**
     * The caller behind an access token (our user id and the Firebase account it was issued for), with the
     * role as the database has it now; null if the user is gone or is no longer that Firebase account.
     */
    async actorFor(userId: string, firebaseUid: string): Promise<Actor | null> {
      return readActor({ userId, firebaseUid });
    },

    /**
     * Exchanges a Firebase ID token for our access token. The account is the Firebase uid: the first sign-in
     * of a uid creates its user, later ones find it by uid and bring its email (and whether it is verified) up
     * to date; an email never binds a row to another uid. Saves the profile fields given, and applies
     * ADMIN_EMAILS. `expectedEmail` (REST's PUT /user/{email}) must be the token's email. Rate limited per
     * client address (before the token is verified) and per email (after).
     */
    async signIn(
      idToken: string,
      profileInput: unknown,
      options: { expectedEmail?: string; client?: Client } = {},
    ): Promise<{ token: string; user: UserRow; inserted: boolean }> {
      return (await beginSignIn(idToken, options))(profileInput);
    },

    beginSignIn,

    /**
     * Applies ADMIN_EMAILS at start-up (every replica may run it; each statement is idempotent): admins from
     * before roles had a source count as listed when their address is listed, as granted otherwise; accounts
     * whose role came from the list lose it when their address left the list or is not verified.
     */
    async applyAdminEmails(): Promise<void> {
      const listed = adminEmails.length ? inArray(users.email, adminEmails) : sql`false`;
      await db
        .update(users)
        .set({ adminSource: sql`case when ${listed} then 'admin_emails' else 'granted' end` })
        .where(and(eq(users.role, 'admin'), isNull(users.adminSource)));
      const demoted = await db
        .update(users)
        .set({ role: 'customer', adminSource: null, updatedAt: new Date() })
        .where(and(eq(users.adminSource, 'admin_emails'), or(not(listed), eq(users.emailVerified, false))))
        .returning({ id: users.id });
      for (const { id } of demoted) logger.info('ADMIN_EMAILS took admin away', { userId: id });
    },

    async me(actor: Actor | null): Promise<UserRow> {
      const { userId } = authorize('users.me', actor);
      const user = await byId(userId);
      if (!user) throw notFound('User');
      return user;
    },

    /** The profile of the account that holds `email` now: the user themselves, or an admin. */
    async profileByEmail(actor: Actor | null, email: string): Promise<UserRow> {
      const id = await accountNamedBy(db, 'users.profileByEmail', actor, email);
      const user = id ? await byId(id) : undefined;
      if (!user) throw notFound('User');
      return user;
    },

    async updateProfile(actor: Actor | null, input: unknown): Promise<UserRow> {
      const { userId } = authorize('users.updateProfile', actor);
      return writeProfile(userId, input);
    },

    /** The REST shim's PUT /user/{email} with an access token: the user's own profile, named by their email. */
    async updateProfileByEmail(actor: Actor | null, email: string, input: unknown): Promise<UserRow> {
      const userId = await accountNamedBy(
        db,
        'users.updateProfileByEmail',
        actor,
        email,
        'You may only update your own profile',
      );
      if (!userId) throw notFound('User');
      return writeProfile(userId, input);
    },

    async listUsers(actor: Actor | null, args: { offset?: number | null; limit?: number | null }) {
      authorize('users.listUsers', actor);
      const { offset, limit } = page(args.offset, args.limit, pageSizes.users);
      return pageWithTotal(
        { offset, limit },
        () => db.select().from(users).orderBy(desc(users.createdAt), desc(users.id)).offset(offset).limit(limit),
        async () => (await db.select({ total: count() }).from(users))[0].total,
      );
    },

    /** Whether the account holding `email` is an admin: asked by that user, or by an admin. Unknown: no. */
    async isAdmin(actor: Actor | null, email: string): Promise<boolean> {
      const id = await accountNamedBy(db, 'users.isAdmin', actor, email);
      return id ? (await byId(id))?.role === 'admin' : false;
    },

    /**
     * Makes the account holding `email` an admin. Only a verified address gets a role: an account whose owner
     * never proved the address may be someone who registered it first. `modified` is false when it already was;
     * an admin by ADMIN_EMAILS granted by an admin is then admin by that grant, and stays admin when the address
     * leaves the list.
     */
    async grantAdmin(actor: Actor | null, email: string): Promise<{ user: UserRow; modified: boolean }> {
      const caller = authorize('users.grantAdmin', actor);
      const address = validEmail(email);
      return db.transaction(async (tx) => {
        // As revoking and deleting do: a caller demoted or deleted since their request was authenticated (an
        // admin being removed, granting an accomplice) is refused once the removal has committed.
        await lockAdmins(tx, caller);
        const [target] = await tx.select().from(users).where(eq(users.email, address));
        if (!target) throw notFound('User');
        if (target.role === 'admin' && target.adminSource === 'admin_emails') {
          const [kept] = await tx
            .update(users)
            .set({ adminSource: 'granted', updatedAt: new Date() })
            .where(eq(users.id, target.id))
            .returning();
          logger.info('an admin granted admin', { userId: kept.id, by: caller.userId });
          return { user: kept, modified: false };
        }
        if (target.role === 'admin') return { user: target, modified: false };
        if (!target.emailVerified) {
          throw conflict('This account has not verified its email address yet: only verified accounts can be admins');
        }
        const [updated] = await tx
          .update(users)
          .set({ role: 'admin', adminSource: 'granted', updatedAt: new Date() })
          .where(and(eq(users.id, target.id), eq(users.role, 'customer')))
          .returning();
        if (updated) logger.info('an admin granted admin', { userId: updated.id, by: caller.userId });
        if (updated) return { user: updated, modified: true };
        // Made admin (or deleted) meanwhile by something else than a grant: a sign-in under ADMIN_EMAILS.
        const [now] = await tx.select().from(users).where(eq(users.id, target.id));
        return { user: now ?? target, modified: false };
      });
    },

    /**
     * Takes admin away from the account holding `email`. Never your own, never the last admin, and not while
     * ADMIN_EMAILS lists the address (the next sign-in would give it back: take it off the list instead).
     * `modified` is false when the account was not an admin.
     */
    async revokeAdmin(actor: Actor | null, email: string): Promise<{ user: UserRow; modified: boolean }> {
      const caller = authorize('users.revokeAdmin', actor);
      const address = validEmail(email);
      return db.transaction(async (tx) => {
        await lockAdmins(tx, caller);
        const [target] = await tx.select().from(users).where(eq(users.email, address));
        if (!target) throw notFound('User');
        if (target.role !== 'admin') return { user: target, modified: false };
        // The caller is an admin (lockAdmins) and not the target: another admin stays. So the last admin, who
        // could only revoke themselves, is never demoted.
        if (target.id === caller.userId) throw conflict('You cannot revoke your own admin role');
        if (listedInConfig(target.email) && target.emailVerified) {
          throw conflict(
            `${address} is listed in ADMIN_EMAILS, which makes it admin at every sign-in: take it off that list instead`,
          );
        }
        const [user] = await tx
          .update(users)
          .set({ role: 'customer', adminSource: null, updatedAt: new Date() })
          .where(eq(users.id, target.id))
          .returning();
        logger.info('an admin revoked admin', { userId: user.id, by: caller.userId });
        return { user, modified: true };
      });
    },

    /**
     * Deletes a user and their sign-in account (never yourself, never the last admin). Their unpaid orders are
     * cancelled (stock given back); paid orders, payments and reviews stay for the books, detached from the
     * account and without their email; a paid order keeps the name, phone and address it is to be delivered
     * to until it is shipped (markShipped clears them), a shipped one loses them now. The admins are locked
     * first (lockAdmins), then the user's row (see accountLock.ts): their orders and payments in flight finish
     * before, later ones find the account gone, so no unpaid order is left without its user and the stock of
     * each cancelled one comes back once.
     */
    async deleteUser(actor: Actor | null, id: string): Promise<string> {
      const admin = authorize('users.deleteUser', actor);
      if (!isId(id)) throw notFound('User');
      if (id === admin.userId) throw conflict('You cannot delete your own account');
      const deleted = await db.transaction(async (tx) => {
        // As in revokeAdmin: the caller is still an admin and not the one deleted, so an admin stays.
        await lockAdmins(tx, admin);
        const [found] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
        if (!found) throw notFound('User');
        // Their unpaid orders locked in id order, as deleting a part locks its orders, and the stock given back
        // part by part in id order, as another user's deletion does: two deletions wait, never deadlock. Their
        // expired orders go too (never paid, their stock already back: nothing to keep them for).
        const unpaidOf = and(
          eq(orders.userId, id),
          inArray(orders.status, ['unpaid', 'expired', 'awaiting_approval', 'declined']),
        );
        await tx.select({ id: orders.id }).from(orders).where(unpaidOf).orderBy(orders.id).for('update');
        const unpaid = await tx
          .delete(orders)
          .where(unpaidOf)
          .returning({ partId: orders.partId, orderAmount: orders.orderAmount, status: orders.status });
        const taken = new Map<string, number>();
        for (const { partId, orderAmount, status } of unpaid) {
          if (partId && (status === 'unpaid' || status === 'awaiting_approval'))
            taken.set(partId, (taken.get(partId) ?? 0) + orderAmount);
        }
        for (const partId of [...taken.keys()].sort()) await releaseStock(tx, partId, taken.get(partId) ?? 0);
        await tx.update(orders).set({ email: '' }).where(eq(orders.userId, id));
        await tx
          .update(orders)
          .set({ name: '', phone: '', address: '' })
          .where(and(eq(orders.userId, id), eq(orders.status, 'shipped')));
        await tx.update(payments).set({ email: '' }).where(eq(payments.userId, id));
        await tx.update(reviews).set({ email: '', avatar: '' }).where(eq(reviews.userId, id));
        const [user] = await tx.delete(users).where(eq(users.id, id)).returning();
        return user;
      });
      if (deleted.firebaseUid) await identity.deleteAccount(deleted.firebaseUid);
      return id;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

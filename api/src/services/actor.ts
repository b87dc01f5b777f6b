import { adminsOnly, signInRequired } from '../errors';

/** Who is calling, as read from the database for this request. Null for a visitor. */
export interface Actor {
  userId: string;
  /** The account's email as of its last sign-in (null once the address moved to another account). */
  email: string | null;
  role: 'admin' | 'customer';
}

export const isAdmin = (actor: Actor | null): boolean => actor?.role === 'admin';

/** Services check rights again (defence in depth) even where the schema's directives already did. */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw signInRequired();
  return actor;
}

export function requireAdmin(actor: Actor | null): Actor {
  const signedIn = requireActor(actor);
  if (signedIn.role !== 'admin') throw adminsOnly();
  return signedIn;
}

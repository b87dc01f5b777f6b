import { AppError, forbidden } from '../errors';

/** Who is calling, as read from the database for this request. Null for a visitor. */
export interface Actor {
  userId: string;
  email: string;
  role: 'admin' | 'customer';
}

export const isAdmin = (actor: Actor | null): boolean => actor?.role === 'admin';

/** Services check rights again (defence in depth) even where the schema's directives already did. */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
  return actor;
}

export function requireAdmin(actor: Actor | null): Actor {
  const signedIn = requireActor(actor);
  if (signedIn.role !== 'admin') throw forbidden('Only admins may do this');
  return signedIn;
}

/** The caller is `email` themselves, or an admin. */
export function requireSelfOrAdmin(actor: Actor | null, email: string): Actor {
  const signedIn = requireActor(actor);
  if (signedIn.role !== 'admin' && signedIn.email !== email.trim().toLowerCase()) {
    throw forbidden('You may only see your own data');
  }
  return signedIn;
}

/** Who is calling, as read from the database for this request. Null for a visitor. */
export interface Actor {
  userId: string;
  /** The account's email as of its last sign-in (null once the address moved to another account). */
  email: string | null;
  role: 'admin' | 'customer';
}

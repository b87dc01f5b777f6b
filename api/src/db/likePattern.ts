/** Text made literal inside a LIKE pattern (PostgreSQL's default escape, backslash): `%` and `_` match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

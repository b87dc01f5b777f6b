/**
 * The word similarity (pg_trgm, 0 to 1) from which a word matches a name or description: "brke" matches "brake"
 * (0.4), "pads" does not match "pedals" (0.2). Every session of the app's database runs with it
 * (db/database.ts, `sessionSettings`, which imports this file alone); `%>` reads it, and the trigram index serves it.
 */
export const wordSimilarityThreshold = 0.35;

/** Where the web app keeps the signed-in user's access token (see src/lib). */
export const accessTokenKey = 'accessToken';

const placeholder = '<paste your access token>';

/**
 * The request headers the playground opens with: the signed-in user's access token when this browser has one,
 * else a placeholder to replace (docs/api.md says how to get a token).
 */
export function initialHeaders(storage: Pick<Storage, 'getItem'> | undefined): string {
  let token: string | null = null;
  try {
    token = storage?.getItem(accessTokenKey) ?? null;
  } catch {
    // storage can be blocked (private mode, policies): keep the placeholder
  }
  return JSON.stringify({ Authorization: `Bearer ${token || placeholder}` }, null, 2);
}

/** `/graphql?query=...` opens with that operation (links in docs/api.md use it). */
export function initialQuery(search: string): string | undefined {
  return new URLSearchParams(search).get('query') ?? undefined;
}

export const defaultQuery = `# PartsYard GraphQL API. Public operations need no token; the others need
# "Authorization": "Bearer <access token>" in the headers below (see docs/api.md).
{
  parts(limit: 5) {
    total
    items {
      id
      name
      price
      available
    }
  }
}
`;

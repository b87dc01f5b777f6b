/**
 * Writes the "Rights matrix" section of docs/security.md from rightsMatrix.ts:
 *   node --import tsx api/test/security/renderRights.ts
 * rights.test.ts fails while the document shows another table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { callerKeys, callers, graphqlCodeOf, rightsMatrix, type RightsRow } from './rightsMatrix';

export const securityDocPath = path.resolve(__dirname, '../../../docs/security.md');

const start = '<!-- rights-matrix:start -->';
const end = '<!-- rights-matrix:end -->';

function table(rows: RightsRow[]): string[] {
  const header = ['operation', 'target', ...callerKeys.map((key) => callers[key].title)];
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => {
      const cells = [`\`${row.operation}\``, row.target, ...callerKeys.map((key) => String(row.expected[key]))];
      return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
    }),
  ];
}

/** The section between the markers, as the matrix says it. */
export function renderRightsSection(): string {
  return [
    start,
    '',
    '<!-- Written by `node --import tsx api/test/security/renderRights.ts` from api/test/security/rightsMatrix.ts. -->',
    '',
    'Every GraphQL operation (each `Query` and `Mutation` field of `schema.graphql`) and every `/api` route,',
    'with the answer each caller gets. `api/test/security/rights.test.ts` sends every cell to a running app',
    '(PGlite, and PostgreSQL when `TEST_DATABASE_URL` is set) and fails if any answer differs; if a refused',
    'call or a read changed any row of any table; if an answer to anyone but the customer or an admin carries',
    "the customer's email or the marker written into their profile and order addresses; if an allowed write,",
    'sent on a target of its own, did not change the database; if `schema.graphql` or the REST router has an',
    "operation the table does not list; or if the schema's `@auth` / `@hasRole(role: ADMIN)` disagree with it.",
    '',
    "The table is not written by hand: every row is what its service operation's right in the one table of rights,",
    "`api/src/services/rights.ts`, gives each caller (`anyone`; `signedIn`; `owner`, the target's owner only;",
    '`ownerOrAdmin`; `admin`; `companyAdmin` and `companyMember`, of the target company, or a shop admin: the',
    "customer is the company admin of the companies' rows), and the test fails when a row says otherwise. Some rows are partly decided by",
    'something else, said in `notByRight`: `PUT /api/user/{email}` with an ID token is sign-in, the Stripe',
    "webhook answers to the gateway's signature, and the rows `notByRight` lists with their reasons. The services check the rights; the schema's directives declare",
    'them, and on those fields only turn a refused token into its own 401.',
    '',
    "The callers (columns), each sending the same request about the row's target:",
    '',
    ...callerKeys.map((key) => `- **${callers[key].title}**: ${callers[key].means}.`),
    '',
    '`ok` is success: HTTP 200 (GraphQL: data, no errors). A number is the refusal: on `/api` that HTTP status',
    "with a `{message}` body; on `/graphql` the error's `extensions.code` below, with HTTP status 401 for",
    '`UNAUTHENTICATED`, 403 for `FORBIDDEN` and 200 for the others:',
    '',
    ...Object.entries(graphqlCodeOf).map(([status, code]) => `- ${status}: \`${code}\``),
    '',
    'A call that is let through and uses up its target (cancelling, paying, deleting, granting, revoking) is sent on',
    'a new target of the same kind; `Mutation.grantAdmin`, `Mutation.deleteUser` and their REST rows then act on a',
    "new customer's account (its email verified: only verified accounts can be admins), so that the customer's own",
    'stays for the other rows; `Mutation.revokeAdmin` and its REST row act on a new admin, another than the caller.',
    '',
    '### GraphQL (`/graphql`)',
    '',
    ...table(rightsMatrix.filter((row) => row.api === 'graphql')),
    '',
    '### REST shim (`/api`)',
    '',
    ...table(rightsMatrix.filter((row) => row.api === 'rest')),
    '',
    end,
  ].join('\n');
}

/** `doc` with its rights matrix section rewritten, formatted as `npm run lint` (prettier --check) expects. */
export async function withRightsSection(doc: string): Promise<string> {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${securityDocPath} has no ${start} ... ${end} section`);
  const text = doc.slice(0, from) + renderRightsSection() + doc.slice(to + end.length);
  return prettier.format(text, { ...(await prettier.resolveConfig(securityDocPath)), filepath: securityDocPath });
}

async function main(): Promise<void> {
  const doc = readFileSync(securityDocPath, 'utf8');
  const updated = await withRightsSection(doc);
  writeFileSync(securityDocPath, updated);
  console.log(
    updated === doc ? `${securityDocPath} was up to date` : `rewrote the rights matrix in ${securityDocPath}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

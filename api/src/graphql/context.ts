import type { AppError } from '../errors';
import type { Client } from '../rateLimits';
import type { AccountClaim, Actor } from '../services/actor';
import type { Services } from '../services';

/** What every resolver gets: who is calling and the services that do the work. */
export interface GraphQLContext {
  /**
   * The caller's account, looked up once the operation is known to need it (graphql/callerLookup.ts); null for a
   * visitor, and for an operation of public fields alone.
   */
  actor: Actor | null;
  /**
   * The account an accepted token names, when the lookup was left to the services: an operation whose root
   * fields all read their caller with their data (graphql/callerLookup.ts) is not looked up first, and its
   * resolvers pass this (`actor ?? account`). Null without a token or with a refused one.
   */
  account: AccountClaim | null;
  /** Why a token that was sent was not accepted (expired, forged); reported when a field needs a caller. */
  authError: AppError | null;
  /**
   * Whether the operation never looks at its caller (public fields alone), decided once it is resolved
   * (graphql/callerLookup.ts); until then, false.
   */
  callerFree: boolean;
  /** Whether the request carried credentials (an Authorization header): its answer is never shared. */
  credentials: boolean;
  /**
   * Lets this process's answer cache keep the answer for `seconds` (http/answerCache.ts): a public answer to a
   * request with credentials, whose operation never looked at the caller, so it is the answer anyone gets.
   */
  shareAnswer: (seconds: number) => void;
  /** Looks the caller up (at most once per request): `actor` and `authError` as they are now. */
  lookUpCaller: () => Promise<Pick<GraphQLContext, 'actor' | 'authError'>>;
  services: Services;
  /** The caller's network address, for the rate limits. */
  client: Client;
  /** What the web client is told about identity and demo mode (ClientSettings without payments). */
  clientSettings: {
    demoMode: boolean;
    firebase: { apiKey: string; authDomain: string; projectId: string; emulatorUrl: string | null };
  };
}

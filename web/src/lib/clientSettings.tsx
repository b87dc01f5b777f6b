import { createContext, useContext, type ReactNode } from 'react';
import { useClientSettingsQuery, type ClientSettingsQuery } from '../generated/graphql';

export type ClientSettings = ClientSettingsQuery['clientSettings'];

const SettingsContext = createContext<ClientSettings | null>(null);

/** What the API says about identity, payments and demo mode; null until it has answered. */
export function ClientSettingsProvider({ children }: { children: ReactNode }) {
  const { data } = useClientSettingsQuery({ fetchPolicy: 'cache-first' });
  return <SettingsContext.Provider value={data?.clientSettings ?? null}>{children}</SettingsContext.Provider>;
}

export const useClientSettings = (): ClientSettings | null => useContext(SettingsContext);

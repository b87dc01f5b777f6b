import { importKinds, importStatuses } from '../imports/importSchema';
import type { ImportJobResolvers, MutationResolvers, QueryResolvers, Resolvers } from './generated';

const upperCased = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as { [K in T as Uppercase<K>]: K };

/** GraphQL's enum values (FITMENT) as the service's (fitment). */
export const importEnums: Pick<Resolvers, 'ImportKind' | 'ImportStatus'> = {
  ImportKind: upperCased(importKinds),
  ImportStatus: upperCased(importStatuses),
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The imports' thin adapters (issue 33 point 5): api/src/imports does the work. The file goes by REST. */
export const importQueries: Pick<QueryResolvers, 'importJobs' | 'importJob' | 'importRejections'> = {
  importJobs: (_, args, { services, actor }) => services.imports.jobs(actor, args),
  importJob: (_, { id }, { services, actor }) => services.imports.job(actor, id),
  importRejections: (_, { id, ...args }, { services, actor }) => services.imports.rejections(actor, id, args),
};

export const importMutations: Pick<MutationResolvers, 'startImport' | 'finishImport' | 'cancelImport'> = {
  startImport: (_, { kind, fileName }, { services, actor }) => services.imports.start(actor, kind, fileName ?? ''),
  finishImport: (_, { id }, { services, actor }) => services.imports.finish(actor, id),
  cancelImport: (_, { id }, { services, actor }) => services.imports.cancel(actor, id),
};

export const importJobFields: ImportJobResolvers = {
  createdAt: (job) => job.createdAt.toISOString(),
  startedAt: (job) => iso(job.startedAt),
  finishedAt: (job) => iso(job.finishedAt),
};

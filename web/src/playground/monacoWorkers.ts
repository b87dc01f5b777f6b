// GraphiQL 5 edits with Monaco, which runs its language services in web workers. Vite bundles a worker only
// when it is imported with `?worker`, so the workers are named here (graphiql's own setup-workers/vite does the
// same, plus a console line on every worker start).
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

(globalThis as { MonacoEnvironment?: { getWorker: (workerId: string, label: string) => Worker } }).MonacoEnvironment = {
  getWorker(_workerId, label) {
    if (label === 'json') return new JsonWorker();
    if (label === 'graphql') return new GraphQLWorker();
    return new EditorWorker();
  },
};

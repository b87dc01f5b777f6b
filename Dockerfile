# syntax=docker/dockerfile:1
# The shop as one image: the API serving the built web app. Production settings come from the environment
# (see .env.example); docker-compose.yml runs it beside PostgreSQL.
# api/test/deploy.test.ts runs this file's RUN, COPY --from, ENV, CMD and HEALTHCHECK steps from a clean
# clone outside Docker, so keep them plain shell commands relative to WORKDIR.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# The lock file and the workspaces' manifests first, so the install layer is reused while only code changes.
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY api/package.json api/
COPY web/package.json web/
# --ignore-scripts: the root postinstall (graphql-codegen) needs the sources, copied below; `npm run build`
# runs codegen itself.
RUN npm ci --ignore-scripts
COPY . .
# GraphQL codegen (resolver types, web hooks), then the web app (shop and playground) into web/dist.
RUN npm run build
# Only runtime dependencies go on; --ignore-scripts keeps the codegen postinstall (a devDependency) from running.
RUN npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/schema.graphql ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/common ./common
COPY --from=build /app/api ./api
COPY --from=build /app/web/package.json ./web/
COPY --from=build /app/web/dist ./web/dist
# The files stay root's (read-only for the app); the process runs as the image's unprivileged `node` user.
USER node
EXPOSE 4000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# TypeScript runs through tsx (a runtime dependency of the API), as in `npm start` and the tests: see README.
# node runs as PID 1 and handles SIGTERM itself (docker stop): it finishes requests in flight, then exits.
CMD ["node", "--import", "tsx", "api/src/main.ts"]

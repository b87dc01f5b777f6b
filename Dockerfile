# syntax=docker/dockerfile:1
# The shop as one image: the API serving the built web app. Production settings come from the environment
# (see .env.example); docker-compose.yml runs it beside PostgreSQL. `npm run test:image` builds this file from a
# clean clone and checks the image as a user would (api/test/image.docker.ts).
# Build with the classic builder or BuildKit: DOCKER_BUILDKIT=0 docker build --network host -t partsyard .

# The server's runtime packages: the API workspace's production dependencies (with @partsyard/common's), none
# of the web client's (Vite bundles those into web/dist) and none of the tools the root keeps. Only the
# manifests go in, so this layer is rebuilt only when they or the lock file change.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY api/package.json api/
COPY web/package.json web/
# A workspace's own node_modules holds the versions that differ from the hoisted ones (made even when empty, for
# the COPY below). Type declarations and source maps serve only tools (tsc, debuggers): dropped, half the size.
RUN npm ci --omit=dev --workspace=@partsyard/api --ignore-scripts \
 && mkdir -p api/node_modules common/node_modules \
 && find node_modules api/node_modules common/node_modules -type f \
      \( -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -name '*.map' \) -delete

# Everything, to build: GraphQL codegen (resolver types, web hooks) and the web app into web/dist.
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY api/package.json api/
COPY web/package.json web/
# --ignore-scripts: the root postinstall (graphql-codegen) needs the sources, copied below; `npm run build`
# runs codegen itself.
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000 HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/common/node_modules ./common/node_modules
COPY --from=deps /app/api/node_modules ./api/node_modules
COPY --from=build /app/package.json /app/schema.graphql ./
COPY --from=build /app/common/package.json ./common/
COPY --from=build /app/common/src ./common/src
COPY --from=build /app/api/package.json ./api/
COPY --from=build /app/api/src ./api/src
COPY --from=build /app/api/drizzle ./api/drizzle
COPY --from=build /app/web/dist ./web/dist
# The files stay root's (read-only for the app); the process runs as the image's unprivileged `node` user.
USER node
EXPOSE 4000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# TypeScript runs through tsx (a runtime dependency of the API), as in `npm start` and the tests: see README.
# node is PID 1 and handles SIGTERM itself (docker stop): it stops taking connections, answers the requests it
# has accepted (8 s at most), logs "stopped" and exits 0; an idle server exits at once.
# 16 MB semi-spaces (Node's default, written out so that it holds): a young generation of at most 48 MiB per
# process, so that a worker's memory can be planned (README, "Memory"; 64 MB ones made workers of 400+ MiB).
CMD ["node", "--max-semi-space-size=16", "--import", "tsx", "api/src/main.ts"]

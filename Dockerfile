# syntax=docker/dockerfile:1
# Tillpoint: build the web apps in one stage, run on a slim Node LTS as an unprivileged user.
# docs/operations.md explains the settings, the volume and the health check.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
# The SDK workspace: the CLI's listen and trigger use it, and `npm ci` builds it.
COPY sdk/node ./sdk/node
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
# The same files as package.json's "files" (what `npm pack` ships): the server renders the
# checkout page from web/, and the CLI's developer commands use the SDK's sources.
COPY --from=build /app/bin ./bin
COPY --from=build /app/src ./src
COPY --from=build /app/web ./web
COPY --from=build /app/sdk/node ./sdk/node
COPY --from=build /app/dist/web ./dist/web
# The embedded database (when DATABASE_URL is unset), its lock and the CLI's admin socket.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4242 DATA_DIR=/data
VOLUME ["/data"]
USER node
EXPOSE 4242
# Liveness only (the process answers); load balancers should use /readyz (database, migrations, shutdown).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4242) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "bin/tillpoint.js", "serve"]

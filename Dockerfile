# syntax=docker/dockerfile:1
# jiguang-sandbox: `docker run -p 8080:8080 <image>` and the default credentials answer at once.

# --- build: compilers for better-sqlite3's native addon, the TypeScript build, then production deps only
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# No prebuilt binary is fetched (offline builds work the same): better-sqlite3 compiles from source.
RUN npm ci --no-audit --no-fund --build-from-source=better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 # The compiled addon is all better-sqlite3 needs at run time: drop its C sources and objects.
 && cd node_modules/better-sqlite3 \
 && find build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
 && find build/Release -mindepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
 && rm -rf deps src docs \
 && cd /app \
 && find node_modules dist \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' \) -delete

# --- run: no compilers, no dev dependencies, no root
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    TLS_PORT=443 \
    DB_PATH=/data/sandbox.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY migrations ./migrations
# The web UI's files, served as they are (no build step): dist/ui finds them at ../../src/ui/public.
COPY src/ui/public ./src/ui/public
# The database and the local CA live on the volume, owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
# 443: TLS under the vendor hostnames. Docker >= 20.10 lets a non-root process bind it
# (net.ipv4.ip_unprivileged_port_start=0 in the container); elsewhere set TLS_PORT=8443.
EXPOSE 8080 443
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node as PID 1 receives SIGTERM from `docker stop` and closes gracefully (src/server.ts).
CMD ["node", "dist/server.js"]

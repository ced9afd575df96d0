# syntax=docker/dockerfile:1
# jiguang-sandbox: `docker run -p 8080:8080 <image>` and the default credentials answer at once.

# --- build: compilers for better-sqlite3's native addon, the bundled build, then production deps only
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY client/package.json ./client/
# No prebuilt binary is fetched (offline builds work the same): better-sqlite3 compiles from
# source. Its install script runs; this package's own prepare (the build) runs below, once the
# sources are there.
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild better-sqlite3 --build-from-source
COPY tsconfig.json ./
COPY scripts ./scripts
COPY client/tsconfig.json ./client/
COPY client/src ./client/src
COPY src ./src
# The build migrates a new database (dist/fresh-<digest>.db) that a start on a new DB_PATH copies.
COPY migrations ./migrations
# The client workspace is not part of the image: without it, its optional peer testcontainers
# (a dev dependency here) is pruned with the other dev dependencies.
RUN npm run build \
 && rm -rf client node_modules/jiguang-sandbox-client && npm pkg delete workspaces \
 && npm prune --omit=dev --no-audit --no-fund \
 # The compiled addon is all better-sqlite3 needs at run time: drop its C sources and objects.
 && cd node_modules/better-sqlite3 \
 && find build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
 && find build/Release -mindepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
 && rm -rf deps src docs \
 && cd /app \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' \) -delete
# One start of the image's own server, to its first 200, so that every `docker run` compiles the
# sandbox from the V8 code cache it leaves in dist/compile-cache/ (src/process/script-bundle.ts): the
# same node and flags as the image's CMD. Files readable by all: the image runs as `node`, who
# cannot write there (a start then reads the cache and writes nothing).
RUN bash -c 'PORT=8099 HOST=127.0.0.1 DB_PATH=/tmp/warm.db LOG_LEVEL=warn node dist/server.js & pid=$!; \
      for i in $(seq 300); do \
        { exec 3<>/dev/tcp/127.0.0.1/8099 && printf "GET /_sandbox/health HTTP/1.0\r\n\r\n" >&3 \
          && read -r _ status _ <&3 && [ "$status" = 200 ] && break; } 2>/dev/null; sleep 0.1; \
      done; exec 3>&-; kill -TERM $pid; wait $pid; rm -f /tmp/warm.db*; ls dist/compile-cache/*.bin' \
 && chmod -R a+rX dist/compile-cache

# --- run: no compilers, no dev dependencies, no root
FROM node:22-bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="jiguang-sandbox" \
      org.opencontainers.image.description="A local, stateful emulator of the JSMS SMS REST API v1 and the JPush REST API v3" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/jiguang-sandbox/jiguang-sandbox" \
      org.opencontainers.image.licenses="MIT"
# HOST=0.0.0.0: beyond loopback the operator has no default password; unless SANDBOX_OPERATOR is
# set, the first start generates one, prints it once and keeps it in /data (docs/configuration.md).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    TLS_PORT=443 \
    DB_PATH=/data/sandbox.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY LICENSE ./
COPY migrations ./migrations
# The web UI's files, served as they are (no build step).
COPY src/ui/public ./src/ui/public
# What agents read (GET /llms.txt, the MCP server's resources): llms.txt and the manual's pages.
COPY llms.txt README.md ./
COPY docs/*.md ./docs/
# The database and the local CA live on the volume, owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
# 443: TLS under the vendor hostnames. Docker >= 20.10 lets a non-root process bind it
# (net.ipv4.ip_unprivileged_port_start=0 in the container); elsewhere set TLS_PORT=8443.
EXPOSE 8080 443
# Every second, so that `docker run` is healthy about a second after the start (Docker before 25
# has no faster first check, --start-interval); bash's /dev/tcp, not node: a check costs ~2 ms,
# not ~40 (no curl in the image).
HEALTHCHECK --interval=1s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /_sandbox/health HTTP/1.0\\r\\n\\r\\n' >&3 && read -r _ status _ <&3 && [ \"$status\" = 200 ]"]
# node as PID 1 receives SIGTERM from `docker stop` and closes gracefully (src/process/run.ts).
CMD ["node", "dist/server.js"]

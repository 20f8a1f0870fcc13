# syntax=docker/dockerfile:1
# Production image: build with the dev dependencies, run with production ones only.
#   docker build -t opportunity-read-api .
# The runtime stage holds dist/ beside migrations/ and index-mappings/ (paths resolve from the
# package root), runs as the unprivileged `node` user, in production mode (contract §22.4).

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
# No install script runs in the image (none of the production dependencies needs one).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY migrations ./migrations
COPY index-mappings ./index-mappings
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
# /readyz: Postgres and OpenSearch both answer (node's own fetch: the slim image has no curl).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec form: node is PID 1 and receives SIGTERM itself, so it drains (contract §22.6). With
# API_PROCESSES set (e.g. auto: one per core) this node is the primary of that many API processes
# on PORT and drains them all on SIGTERM (docs/operations.md, "Several API processes per host").
# The node flags are package.json's start:prod ones (a larger young generation: docs/operations.md,
# "Memory"); test/unit/deploy-files.test.ts keeps the two the same.
CMD ["node", "--max-semi-space-size=64", "dist/main.js"]

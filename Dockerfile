# syntax=docker/dockerfile:1
# Multi-stage: compile with dev dependencies, ship only production ones, run as a non-root user.

# Node 24 LTS: the version .ci/run runs the whole test suite on.
FROM node:24-bookworm-slim AS toolchain
WORKDIR /app
COPY package.json package-lock.json ./

FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build

# --omit=optional: the optional node-linux-* packages bring Node 24 to machines whose own Node is
# older (docs/deployment.md); this image has Node 24 already, so it ships one runtime, not two.
FROM toolchain AS production-deps
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
CMD ["node", "--max-semi-space-size=0", "dist/main.js"]

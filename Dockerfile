# Container form of the KRM function, as kpt runs it (`docker run --rm -i --network none --user
# nobody`): the function is the entrypoint, needs no network and writes nothing.
#   docker build -t render-clusterclass .
#   kpt fn eval PKG --image render-clusterclass -- mode=preview
FROM node:20-alpine AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-alpine
WORKDIR /fn
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
USER 65534:65534
ENTRYPOINT ["node", "/fn/bin/render-clusterclass"]

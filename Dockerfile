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
COPY scripts/bundle.mjs scripts/lazy-cel.mjs scripts/lazy-builtins.mjs scripts/prng.mjs ./scripts/
COPY bin ./bin
COPY examples/basic ./examples/basic
# The code cache is warmed by a render of the example and a KRM run of the bench's class.
COPY bench/fleet.mjs bench/fleet-class.yaml ./bench/
RUN npm run build

# The bin runs one bundle (dependencies included) with its V8 code cache: nothing else is needed.
FROM node:20-alpine
WORKDIR /fn
COPY --from=build /src/dist/render-clusterclass.cjs /src/dist/render-clusterclass.cjs.cache ./dist/
COPY bin ./bin
USER 65534:65534
ENTRYPOINT ["node", "/fn/bin/render-clusterclass"]

# The harness and everything its test suite needs: Node 20, Debian's adb and the project.
# `docker run --rm android-mcp-harness` runs the whole suite, virtual device included: no
# Android SDK, no emulator and no Appium on the host. See docs/internals/docker.md for what was verified.
#
# BASE_IMAGE must be Debian bookworm with Node >= 20.19 on PATH. Where no registry is
# reachable, build a local one (docs/internals/docker.md) and pass --build-arg BASE_IMAGE=<it>.
ARG BASE_IMAGE=node:20-bookworm-slim
FROM ${BASE_IMAGE}

# Debian's adb (29.0.6) is the adb CI uses; its package also lays out /usr/lib/android-sdk,
# which Appium's adb lookup accepts as ANDROID_HOME. procps gives the tests `ps`; Java 17 runs
# the Selenium Grid of test/integration/seleniumGrid.test.ts.
RUN if ! command -v adb >/dev/null 2>&1 || ! command -v ps >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends adb procps ca-certificates openjdk-17-jre-headless \
      && rm -rf /var/lib/apt/lists/*; \
    fi
ENV ANDROID_HOME=/usr/lib/android-sdk \
    CI=true

WORKDIR /app
# Dependencies first, so that editing the sources does not reinstall them.
COPY package.json package-lock.json ./
# The virtual device is a workspace package: npm ci links it, so its manifest comes first too.
COPY packages/virtual-device/package.json packages/virtual-device/
ARG NPM_INSTALL="npm ci --no-audit --no-fund"
# Behind a TLS-intercepting proxy, mount its CA bundle for the build only and name it here
# (docs/internals/docker.md); nothing of it stays in the image.
ARG NODE_EXTRA_CA_CERTS
RUN ${NPM_INSTALL}
COPY . .
RUN npm run build

# The suite reads the shared fixtures from ../shared when present: mount them with
# `-v /path/to/shared:/shared:ro`; without them those tests skip and say so.
CMD ["npm", "test"]

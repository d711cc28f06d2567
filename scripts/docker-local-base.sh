#!/usr/bin/env bash
# Builds a local stand-in for node:20-bookworm-slim where no container registry is reachable:
# a Debian bookworm rootfs from Debian's own mirror (debootstrap), Debian's adb, and the host's
# Node 20 (binary and npm) copied in. Needs root, debootstrap and buildah:
#   apt-get install -y debootstrap buildah
# Then build the image with it:
#   buildah bud --isolation chroot --build-arg BASE_IMAGE=localhost/amh-base:bookworm-node20 -t android-mcp-harness .
set -euo pipefail

TAG="${1:-localhost/amh-base:bookworm-node20}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

node_bin="$(command -v node)"
node_version="$("$node_bin" --version)"
case "$node_version" in
  v2[0-9].*) ;;
  *) echo "the host's node is $node_version; Node >= 20.19 is needed" >&2; exit 1 ;;
esac
npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."

debootstrap --variant=minbase --include=adb,ca-certificates,procps,libstdc++6 bookworm "$WORK/rootfs" "$MIRROR"

install -m 0755 "$node_bin" "$WORK/rootfs/usr/bin/node"
mkdir -p "$WORK/rootfs/usr/lib/node_modules"
cp -a "$(readlink -f "$npm_dir")" "$WORK/rootfs/usr/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/rootfs/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$WORK/rootfs/usr/bin/npx"
chroot "$WORK/rootfs" /usr/bin/node --version
chroot "$WORK/rootfs" /usr/bin/adb version | head -n 1

ctr="$(buildah from scratch)"
mnt="$(buildah mount "$ctr")"
cp -a "$WORK/rootfs/." "$mnt/"
buildah umount "$ctr"
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/bash "$ctr"
buildah commit "$ctr" "$TAG"
buildah rm "$ctr"
echo "built $TAG (Debian bookworm, adb, node $node_version)"

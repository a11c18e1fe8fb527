#!/bin/sh
# Checks the Debian packages the build, tests, demo and viewer need. As root, installs the
# missing ones (apt-get update first); otherwise prints the exact install line and fails.
set -eu
PKGS="cmake ninja-build make gcc g++ pkg-config libc6-dev
libcjson-dev libassimp-dev assimp-testmodels
libepoxy-dev libegl-dev libegl1 libegl-mesa0 libgl1-mesa-dev libgl1-mesa-dri libgles-dev
libstb-dev libglfw3-dev xvfb xauth fonts-dejavu-core
gcc-mingw-w64-x86-64 wine64 doxygen ${LB_EXTRA_PKGS:-}"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  echo "deps: all packages present"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends $missing
else
  echo "deps: missing packages. Run:"
  echo "  sudo apt-get update && sudo apt-get install -y$missing"
  exit 1
fi

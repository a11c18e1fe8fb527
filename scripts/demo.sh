#!/bin/sh
# Runs the main job on the built-in default. Replaced by the scenario runner once it lands.
set -eu
BUILD=${1:-build}
exec "$BUILD/examples/hello_ik"

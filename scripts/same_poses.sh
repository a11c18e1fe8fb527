#!/bin/sh
# same_poses.sh A B [STEP]: runs every STEP-th shipped scenario (default 10) with the runners A and B
# and fails unless every pose file is the same to the byte: two builds of the library that must agree
# to the bit (the AVX2 build against the default one, say).
set -eu
a=$1
b=$2
step=${3:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0
bad=0
i=0
for s in "$(dirname "$0")"/../scenarios/*.json; do
  i=$((i + 1))
  [ $((i % step)) -eq 0 ] || continue
  n=$((n + 1))
  "$a" run "$s" --poses "$dir/a.jsonl" --no-timing >/dev/null 2>&1 || true
  "$b" run "$s" --poses "$dir/b.jsonl" --no-timing >/dev/null 2>&1 || true
  if ! cmp -s "$dir/a.jsonl" "$dir/b.jsonl"; then
    echo "poses differ: $(basename "$s")"
    bad=$((bad + 1))
  fi
  rm -f "$dir/a.jsonl" "$dir/b.jsonl"
done
echo "$n scenarios, $bad with different poses"
[ "$bad" -eq 0 ]

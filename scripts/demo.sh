#!/bin/sh
# `make demo`: with a display, opens limber-viewer on the default scenario; without one (CI, SSH),
# runs the same scenario headless and writes out/demo/report.json, a pose stream and PNG frames.
set -eu
BUILD=${1:-build}
SCENARIO=${LB_DEMO_SCENARIO:-scenarios/demo.json}
OUT=out/demo

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/limber-viewer" ]; then
	echo "demo: opening limber-viewer on $SCENARIO (Esc quits; keys listed at the bottom of the window)"
	if "$BUILD/limber-viewer" "$SCENARIO"; then
		exit 0
	fi
	echo "demo: the viewer could not open a window; running headless instead"
fi

rm -rf "$OUT"
mkdir -p "$OUT/frames"
"$BUILD/limber" run "$SCENARIO" --report "$OUT/report.json" --poses "$OUT/poses.jsonl" \
	--frames "$OUT/frames" --every 40 --size 960x540
"$BUILD/limber-viewer" "$SCENARIO" --size 960x540 --frames 1 --out "$OUT/viewer" >/dev/null 2>&1 || true
count=$(ls "$OUT/frames" | wc -l)
echo "demo: ran $SCENARIO headless (no display found)"
echo "  report:  $OUT/report.json"
echo "  poses:   $OUT/poses.jsonl"
echo "  frames:  $OUT/frames/ ($count PNG files, e.g. $OUT/frames/$(ls "$OUT/frames" | head -n 1))"
[ -f "$OUT/viewer/frame_00000.png" ] && echo "  viewer:  $OUT/viewer/frame_00000.png (the viewer's first frame, with its on-screen text)"
echo "  summary:"
sed -n '/"summary"/,/"system"/p' "$OUT/report.json" | grep -E '_max|_inversions|violations|nan_frames' |
	sed -e 's/[",]//g' -e 's/^[[:space:]]*/    /'

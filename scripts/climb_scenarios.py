# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
# Writes the climbing scenario set (scenarios/climb_<world>_<rig>.json): every world gets on the
# wall limb by limb, climbs each limb in turn, crosses the hands, puts a foot high by the hip,
# reaches to the limit and releases. Run: python3 scripts/climb_scenarios.py [OUT_DIR]
import json, sys, os
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'scenarios')
BCN_ROLES = json.load(open(os.path.join(OUT, 'bcn_idle_foot.json')))['rig']
RIGS = {'mannequin': 'mannequin', 'mixamo': 'mixamo', 'bcn': BCN_ROLES}

def move(t, limb, x, y, dur, confirm=True, release_first=False):
    ev = []
    if release_first:
        ev.append({"t": round(t, 3), "input": "release", "limb": limb})
    ev.append({"t": round(t, 3), "input": "select_limb", "limb": limb})
    ev.append({"t": round(t + 0.05, 3), "input": "stick", "x": x, "y": y})
    ev.append({"t": round(t + 0.05 + dur, 3), "input": "stick", "x": 0.0, "y": 0.0})
    if confirm:
        ev.append({"t": round(t + 0.35 + dur, 3), "input": "confirm"})
    return ev, t + 0.8 + dur

def seq(steps):
    t = 0.2; ev = []
    for s in steps:
        e, t = move(t, *s)
        ev += e
    return ev, t

# (limb, x, y, duration, confirm, release_first)
GET_ON_HANDS_FIRST = [("hand_r", 0.3, 0.6, 0.6), ("hand_l", -0.3, 0.6, 0.6),
                      ("foot_r", 0.2, 1.0, 0.6), ("foot_l", -0.2, 1.0, 0.6)]
GET_ON_FEET_FIRST = [("foot_r", 0.2, 1.0, 0.6), ("foot_l", -0.2, 1.0, 0.6),
                     ("hand_r", 0.3, 0.6, 0.6), ("hand_l", -0.3, 0.6, 0.6)]
HOLDS_START = [("hand_r", 0.25, 1.0, 1.2), ("hand_l", -0.25, 1.0, 1.2),
               ("foot_r", 0.3, 1.0, 0.9), ("foot_l", -0.3, 1.0, 0.9)]
CLIMB = [("hand_r", 0.0, 1.0, 0.8, True, True), ("foot_r", 0.0, 1.0, 0.6, True, True),
         ("hand_l", 0.0, 1.0, 0.8, True, True), ("foot_l", 0.0, 1.0, 0.6, True, True),
         # crossing hands: the left hand past the right
         ("hand_l", 1.0, 0.2, 1.0, True, True),
         # a foot high by the hip
         ("foot_r", 0.3, 1.0, 1.4, True, True),
         # a reach to the limit
         ("hand_r", 1.0, 1.0, 2.0, True, True)]
END_RELEASE = [("hand_r",), ("hand_l",)]

WORLDS = {
    'wall': ({"builder": "wall", "params": {"distance": 0.35}}, GET_ON_HANDS_FIRST),
    'slab': ({"builder": "wall", "params": {"distance": 0.22, "angle_deg": 70}}, GET_ON_FEET_FIRST),
    'overhang': ({"builder": "wall", "params": {"distance": 1.0, "angle_deg": 110, "height": 2.4}}, GET_ON_HANDS_FIRST),
    'holds': ({"builder": "holds", "params": {"distance": 0.35}}, HOLDS_START),
    'corner': ({"builder": "inside_corner", "params": {"distance": 0.4}}, GET_ON_HANDS_FIRST),
    'ledge': ({"builder": "ledge_top", "params": {"distance": 0.35, "height": 1.9}}, GET_ON_HANDS_FIRST),
    # Other sizes (scripts/climb_sweep.py draws more): a shallower slab nearer the character, whose
    # plane runs back over the floor the standing foot is on, a steeper overhang nearer the
    # character, and a ledge 2 m high, whose top the shoulders stay below, so the hands reach it
    # round its edge.
    'slab_61': ({"builder": "wall", "params": {"distance": 0.23, "angle_deg": 61}}, GET_ON_FEET_FIRST),
    'overhang_104': ({"builder": "wall", "params": {"distance": 0.95, "angle_deg": 104, "height": 2.4}}, GET_ON_HANDS_FIRST),
    'ledge_2m': ({"builder": "ledge_top", "params": {"distance": 0.35, "height": 2.0}}, GET_ON_HANDS_FIRST),
    # An inside corner nearer the character, where the body's solve wobbling as the left foot is
    # steered into the corner swung the held left forearm (mannequin), and an overhang whose top
    # the reach to the limit holds at its edge, the forearm passing over the lip (mixamo).
    'corner_036': ({"builder": "inside_corner", "params": {"distance": 0.36}}, GET_ON_HANDS_FIRST),
    # Nearer still: the hand steered onto the side wall turns before its fingers reach it.
    'corner_031': ({"builder": "inside_corner", "params": {"distance": 0.31}}, GET_ON_HANDS_FIRST),
    'overhang_1096': ({"builder": "wall", "params": {"distance": 1.03, "angle_deg": 109.6, "height": 2.4}}, GET_ON_HANDS_FIRST),
    # Nearer again: a hand on the side wall whose elbow, going over to the far side of the back
    # wall's direction as the hand locks, must keep round it, not through it.
    'corner_030': ({"builder": "inside_corner", "params": {"distance": 0.30}}, GET_ON_HANDS_FIRST),
    # A hand confirmed on the side wall with its palm far off it (its elbow kept on its side of the
    # back wall), which must be flat by the time it locks.
    'corner_033': ({"builder": "inside_corner", "params": {"distance": 0.33}}, GET_ON_HANDS_FIRST),
    # An overhang whose top the reach to the limit comes onto over the lip, the hand's palm turned
    # away from the top as it goes (its wrist must not be drawn down onto the lip), and a steeper
    # one, whose first hand locks with its forearm nearly along the wall and must still lie flat.
    'overhang_1049': ({"builder": "wall", "params": {"distance": 1.05, "angle_deg": 104.9, "height": 2.4}}, GET_ON_HANDS_FIRST),
    'overhang_1146': ({"builder": "wall", "params": {"distance": 0.92, "angle_deg": 114.6, "height": 2.4}}, GET_ON_HANDS_FIRST),
    # An overhang at the limit of reach whose top the right hand holds, its shoulder under the lip,
    # while the right foot is moved high by the hip: the body must not sink so far that the
    # forearm cannot pass over the lip.
    'overhang_1012': ({"builder": "wall", "params": {"distance": 1.07, "angle_deg": 101.2, "height": 2.4}}, GET_ON_HANDS_FIRST),
    # An overhang at the limit of reach whose top the left hand moves onto over the lip, its palm
    # still turning toward the top (its forearm's roll turned about 80 degrees in one frame): the
    # forearm must keep its direction while the roll is limited, or the wrist falls onto the top.
    'overhang_0980': ({"builder": "wall", "params": {"distance": 1.07, "angle_deg": 98.0, "height": 2.4}}, GET_ON_HANDS_FIRST),
    # An overhang 1 m away whose held right hand sees the body move round it until the hand's turn
    # about the forearm has gone a whole turn, the forearm held at its roll limit: taking that turn
    # off must not roll the forearm back into its range in one frame.
    'overhang_0961': ({"builder": "wall", "params": {"distance": 1.0, "angle_deg": 96.1, "height": 2.4}}, GET_ON_HANDS_FIRST),
    # An overhang 0.88 m away whose top the reach to the limit comes onto over the lip with the
    # palm still turned the way the hand reaches: the wrist lies farther than a flat palm puts it,
    # and the arm must not stretch straight under the lip.
    'overhang_0972': ({"builder": "wall", "params": {"distance": 0.88, "angle_deg": 97.2, "height": 2.4}}, GET_ON_HANDS_FIRST),
}

# Holds world (distance 0.35, seed 1): hold centres (side toward the character's left, height)
# from lbSceneHolds, and where each limb starts (wrist or toe tip of the idle pose). Each move
# steers straight from where the limb is to the hold at its speed, so the guide stops over it.
HOLDS = {0: (0.229, 1.869), 1: (-0.301, 1.633), 2: (0.316, 0.380), 3: (-0.384, 0.452),
         31: (-0.518, 1.078), 36: (-0.475, 2.165), 47: (0.220, 2.252), 53: (0.400, 0.868)}
START = {"hand_l": (0.21, 0.89), "hand_r": (-0.21, 0.89), "foot_l": (0.09, 0.0), "foot_r": (-0.09, 0.0)}
HOLD_PLAN = [("hand_l", 0), ("hand_r", 1), ("foot_r", 3), ("foot_l", 2),
             ("hand_r", 36), ("foot_r", 31), ("hand_l", 47), ("foot_l", 53)]

def holds_steps():
    where = dict(START); steps = []
    for limb, hold in HOLD_PLAN:
        (y0, z0), (y1, z1) = where[limb], HOLDS[hold]
        dy, dz = y1 - y0, z1 - z0
        dist = (dy * dy + dz * dz) ** 0.5
        speed = 0.6 if limb.startswith("hand") else 0.5
        steps.append((limb, round(-dy / dist, 3), round(dz / dist, 3), round(dist / speed, 3), True, limb in HELD))
        where[limb] = (y1, z1); HELD.add(limb)
    return steps
HELD = set()

def scenario(world, rig):
    shape, start = WORLDS[world]
    HELD.clear()
    steps = holds_steps() if world == 'holds' else list(start) + CLIMB
    if world.startswith('corner'):
        # into the corner and onto the side wall, a hand and then a foot
        steps += [("hand_l", -1.0, 0.2, 1.4, True, True), ("foot_l", -1.0, 0.3, 1.2, True, True)]
    if world.startswith('ledge'):
        # over the edge onto the top, one hand after the other
        steps += [("hand_l", 0.0, 1.0, 1.6, True, True), ("hand_r", 0.0, 1.0, 1.6, True, True)]
    ev, t = seq(steps)
    # a release of a single hand while the rest hold
    ev.append({"t": round(t, 3), "input": "release", "limb": "hand_l"})
    t += 0.8
    frames = int(round(t / 0.016666667)) + 1
    name = f"climb_{world}_{rig}"
    return name, {
        "name": name,
        "description": f"Limb-by-limb climbing on the {world} world ({rig} rig): each limb in turn, crossing hands, a foot high by the hip, a reach to the limit, releases",
        "world": {"shapes": [shape]},
        "rig": RIGS[rig],
        "motion": "idle",
        "system": "climb",
        "timeline": ev,
        "dt": 0.016666667,
        "frames": frames,
        "camera": {"target": [0, 0, 1.2], "yaw_deg": 125, "pitch_deg": 8, "distance": 3.6, "fov_deg": 40, "follow": True},
    }

todo = [(w, r) for w in WORLDS for r in ('mannequin', 'mixamo')] + [('wall', 'bcn')]
for w, r in todo:
    name, sc = scenario(w, r)
    with open(os.path.join(OUT, name + '.json'), 'w') as f:
        json.dump(sc, f, indent=2)
        f.write('\n')
    print(name, sc['frames'])

# Planner scenarios (scenarios/climb_plan_<world>_<rig>.json): no timeline; the hold planner
# samples the wall ahead, plans a climb to the goal and drives the limbs itself.
PLAN_WORLDS = {
    'holds': ({"builder": "holds", "params": {"distance": 0.35}}, [0.29, 0.22, 2.25], 2100),
    'wall': ({"builder": "wall", "params": {"distance": 0.35}}, [0.35, 0.0, 3.0], 2100),
    'slab': ({"builder": "wall", "params": {"distance": 0.25, "angle_deg": 70}}, [1.34, 0.0, 3.0], 2100),
    'overhang': ({"builder": "wall", "params": {"distance": 0.9, "angle_deg": 110, "height": 3.0}}, [-0.05, 0.0, 2.6], 2100),
    'corner': ({"builder": "inside_corner", "params": {"distance": 0.4}}, [0.4, -0.5, 3.0], 2100),
    # Another size (scripts/climb_sweep.py --plan draws more): a wall 0.38 m away, where a foot
    # moved high by the hip turns its knee across to the other side.
    'wall_038': ({"builder": "wall", "params": {"distance": 0.38}}, [0.38, 0.0, 3.0], 2100),
    # An inside corner 0.37 m away (the goal 0.9 m from the corner line, as the sweep places it): a
    # foot placed high closed the side its knee was on between the two walls, and the knee went
    # across late, through the foot's wall.
    'corner_037': ({"builder": "inside_corner", "params": {"distance": 0.37}}, [0.37, -0.53, 3.0], 2100),
    # Steeper slabs: a held foot's ankle, aimed within its range about the shin, lay beyond the leg
    # as the other foot locked (74 degrees, the mannequin), and a foot locking turned the body's
    # solve 10-12 degrees in a frame (72.6 degrees, mixamo).
    'slab_74': ({"builder": "wall", "params": {"distance": 0.29, "angle_deg": 74.0}}, [1.15, 0.0, 3.0], 2100),
    'slab_726': ({"builder": "wall", "params": {"distance": 0.24, "angle_deg": 72.6}}, [1.18, 0.0, 3.0], 2100),
    # A shallow slab got on hands first: the climbing frame leaning with it while the feet still
    # stood turned the whole character (a palm 21.6 degrees off the wall on mixamo).
    'slab_609': ({"builder": "wall", "params": {"distance": 0.23, "angle_deg": 60.9}}, [1.9, 0.0, 3.0], 2100),
}

def plan_scenario(world, rig):
    shape, goal, frames = PLAN_WORLDS[world]
    name = f"climb_plan_{world}_{rig}"
    return name, {
        "name": name,
        "description": f"The hold planner climbs the {world} world to a goal ({rig} rig): holds sampled from the wall, one limb moved at a time while three hold",
        "world": {"shapes": [shape]},
        "rig": RIGS[rig],
        "motion": "idle",
        "system": {"name": "climb", "config": {"planner": {"goal": goal}}},
        "timeline": [],
        "dt": 0.016666667,
        "frames": frames,
        "camera": {"target": [0, 0, 1.6], "yaw_deg": 125, "pitch_deg": 8, "distance": 4.2, "fov_deg": 40, "follow": True},
    }

# Every world on both reference rigs. tests/test_climb_scenarios.c holds those not yet within every
# climbing limit (the holds on the mannequin: a hand locked below the shoulder tilts its palm;
# pops on the slab and the wall on mixamo and the corner on the mannequin) to ceilings that may
# only shrink.
PLAN_SET = [(w, r) for w in PLAN_WORLDS for r in ('mannequin', 'mixamo')]
for w, r in PLAN_SET:
    name, sc = plan_scenario(w, r)
    with open(os.path.join(OUT, name + '.json'), 'w') as f:
        json.dump(sc, f, indent=2)
        f.write('\n')
    print(name, sc['frames'])

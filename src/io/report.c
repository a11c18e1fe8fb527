// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Reports (one JSON object per run) and pose streams (JSON lines). Numbers are printed with a
// fixed precision so the same run gives the same bytes; values that were not measured are null.
#include "scenario_run.h"

#include <stdlib.h>
#include <string.h>

static cJSON* lbNum(double v)
{
	if (!isfinite(v))
		return cJSON_CreateNull();
	char buf[40];
	snprintf(buf, sizeof buf, "%.6g", v);
	return cJSON_CreateRaw(buf);
}

// A maximum or a per-frame value where a negative number means "not measured".
// A "worst_at" entry: an object holding the frame (for the caller to fill in further) where the
// value was met and `known` holds, else null (and NULL back).
static cJSON* lbWorstAt(cJSON* at, const char* name, int frame, bool known)
{
	if (frame < 0 || !known)
	{
		cJSON_AddNullToObject(at, name);
		return NULL;
	}
	cJSON* o = cJSON_AddObjectToObject(at, name);
	cJSON_AddNumberToObject(o, "frame", frame);
	return o;
}

static cJSON* lbMeasured(float v)
{
	return v < 0.0f ? cJSON_CreateNull() : lbNum((double)v);
}

static int lbCompareDouble(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

static void lbAddSeries(cJSON* series, const char* name, const lbFrameMetrics* frames, int count, int field)
{
	cJSON* arr = cJSON_AddArrayToObject(series, name);
	for (int i = 0; i < count; ++i)
	{
		const lbFrameMetrics* f = &frames[i];
		cJSON* v;
		switch (field)
		{
			case 0: v = lbMeasured(f->contactDrift); break;
			case 1: v = lbMeasured(f->penetration); break;
			case 2: v = lbMeasured(f->hover); break;
			case 3: v = lbMeasured(f->palmWallAngle); break;
			case 4: v = lbMeasured(f->posePopDeg); break;
			case 5: v = lbMeasured(f->posePopM); break;
			case 6: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->kneeAngle[0]); break;
			case 7: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->kneeAngle[1]); break;
			case 8: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->elbowAngle[0]); break;
			case 9: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->elbowAngle[1]); break;
			case 10: v = cJSON_CreateNumber(f->kneeInverted ? 1 : 0); break;
			case 11: v = cJSON_CreateNumber(f->elbowInverted ? 1 : 0); break;
			case 12: v = cJSON_CreateNumber(f->limitViolations); break;
			case 13: v = cJSON_CreateNumber(f->nonFinite ? 1 : 0); break;
			case 14: v = cJSON_CreateNumber(f->planted[0] ? 1 : 0); break;
			case 15: v = cJSON_CreateNumber(f->planted[1] ? 1 : 0); break;
			case 16: v = lbMeasured(f->solePenetration); break;
			case 17: v = lbMeasured(f->limbPenetration); break;
			case 18: v = lbMeasured(f->footSupport[0]); break;
			case 19: v = lbMeasured(f->footSupport[1]); break;
			case 20: v = lbMeasured(f->addedPopDeg); break;
			case 21: v = lbMeasured(f->sourcePopDeg); break;
			case 22: v = lbMeasured(f->floatHeight); break;
			case 24: v = lbMeasured(f->torsoHeight); break;
			case 25: v = lbMeasured(f->torsoRollError); break;
			case 26: v = lbMeasured(f->torsoPitchError); break;
			case 27: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->kneeCross); break;
			case 28: v = f->nonFinite ? cJSON_CreateNull() : lbNum(f->selfPenetration); break;
			default: v = cJSON_CreateNumber(f->unmeasured != lb_unmeasuredNone ? 1 : 0); break;
		}
		cJSON_AddItemToArray(arr, v);
	}
}

static cJSON* lbVecJson(lbVec3 v)
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, lbNum(v.x));
	cJSON_AddItemToArray(a, lbNum(v.y));
	cJSON_AddItemToArray(a, lbNum(v.z));
	return a;
}

char* lbRun_ReportJson(const lbRun* run, bool withTiming)
{
	if (!run)
	{
		lbReport(lb_errorNullPointer, "lbRun_ReportJson: run is NULL");
		return NULL;
	}
	const lbScenario* s = run->scenario;
	int count = run->frame < s->frames ? run->frame : s->frames;
	cJSON* root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "limber_report", 1);
	cJSON_AddStringToObject(root, "scenario", s->name);
	cJSON_AddStringToObject(root, "rig", s->rig[0] ? s->rig : s->rigFile);
	cJSON_AddStringToObject(root, "system", s->system);
	cJSON_AddStringToObject(root, "motion", s->motion);
	cJSON_AddItemToObject(root, "dt", lbNum(s->dt));
	cJSON_AddNumberToObject(root, "frames", count);
	cJSON_AddItemToObject(root, "up", lbVecJson(s->upWs));

	const lbMetricsSummary* sm = &run->summaryAtEnd;
	cJSON* summary = cJSON_AddObjectToObject(root, "summary");
	cJSON_AddItemToObject(summary, "contact_drift_max", lbMeasured(sm->contactDriftMax));
	cJSON_AddItemToObject(summary, "penetration_max", lbMeasured(sm->penetrationMax));
	cJSON_AddItemToObject(summary, "hover_max", lbMeasured(sm->hoverMax));
	cJSON_AddItemToObject(summary, "sole_penetration_max", lbMeasured(sm->solePenetrationMax));
	cJSON_AddItemToObject(summary, "limb_penetration_max", lbMeasured(sm->limbPenetrationMax));
	// Which body part the deepest limb penetration is in (lbMetricsSegment order).
	static const char* const segmentNames[lb_segmentCount] = { "thigh", "calf", "foot", "upper_arm", "forearm", "torso" };
	{
		cJSON* bySegment = cJSON_AddObjectToObject(summary, "limb_penetration_by_segment");
		for (int k = 0; k < lb_segmentCount; ++k)
			cJSON_AddItemToObject(bySegment, segmentNames[k], lbMeasured(sm->limbPenetrationBySegmentMax[k]));
	}
	cJSON_AddItemToObject(summary, "support_min", lbMeasured(sm->supportMin));
	{
		// Where the worst values were met, to look at them: the frame and the foot, sole point,
		// segment or bone (null where the value never went past 0).
		static const char* const feet[2] = { "left", "right" };
		static const char* const points[lb_solePointCount] = { "heel", "under_ankle", "ball", "toe_tip" };
		cJSON* at = cJSON_AddObjectToObject(summary, "worst_at");
		cJSON* o = lbWorstAt(at, "sole_penetration", sm->solePenetrationMaxFrame,
							 (unsigned)sm->solePenetrationMaxFoot < 2u && (unsigned)sm->solePenetrationMaxPoint < (unsigned)lb_solePointCount);
		if (o)
		{
			cJSON_AddStringToObject(o, "foot", feet[sm->solePenetrationMaxFoot]);
			cJSON_AddStringToObject(o, "point", points[sm->solePenetrationMaxPoint]);
		}
		o = lbWorstAt(at, "limb_penetration", sm->limbPenetrationMaxFrame, (unsigned)sm->limbPenetrationMaxSegment < (unsigned)lb_segmentCount);
		if (o)
			cJSON_AddStringToObject(o, "segment", segmentNames[sm->limbPenetrationMaxSegment]);
		o = lbWorstAt(at, "support", sm->supportMinFrame, (unsigned)sm->supportMinFoot < 2u);
		if (o)
			cJSON_AddStringToObject(o, "foot", feet[sm->supportMinFoot]);
		o = lbWorstAt(at, "added_pop", sm->addedPopMaxFrame, sm->addedPopMaxBone >= 0 && sm->addedPopMaxBone < run->skeleton->boneCount);
		if (o)
			cJSON_AddStringToObject(o, "bone", run->skeleton->names[sm->addedPopMaxBone]);
	}
	cJSON_AddItemToObject(summary, "floating_max", lbNum(sm->floatingMax));
	cJSON_AddItemToObject(summary, "floating_time", lbNum(sm->floatingTime));
	cJSON_AddNumberToObject(summary, "knee_inversions", sm->kneeInversions);
	cJSON_AddItemToObject(summary, "knee_cross_max", lbNum(sm->kneeCrossMax));
	cJSON_AddNumberToObject(summary, "knee_cross_frames", sm->kneeCrossFrames);
	cJSON_AddItemToObject(summary, "self_penetration_max", lbNum(sm->selfPenetrationMax));
	cJSON_AddNumberToObject(summary, "elbow_inversions", sm->elbowInversions);
	cJSON_AddNumberToObject(summary, "limit_violations", sm->limitViolations);
	cJSON_AddNumberToObject(summary, "source_limit_violations", sm->sourceLimitViolations);
	cJSON_AddItemToObject(summary, "pose_pop_max", lbMeasured(sm->posePopMax));
	cJSON_AddItemToObject(summary, "pose_pop_max_m", lbMeasured(sm->posePopMaxM));
	cJSON_AddItemToObject(summary, "added_pop_max", lbMeasured(sm->addedPopMax));
	cJSON_AddItemToObject(summary, "source_pop_max", lbMeasured(sm->sourcePopMax));
	cJSON_AddItemToObject(summary, "palm_wall_angle_max", lbMeasured(sm->palmWallAngleMax));
	cJSON_AddItemToObject(summary, "torso_height_max", lbMeasured(sm->torsoHeightMax));
	cJSON_AddItemToObject(summary, "torso_roll_error_max", lbMeasured(sm->torsoRollErrorMax));
	cJSON_AddItemToObject(summary, "torso_pitch_error_max", lbMeasured(sm->torsoPitchErrorMax));
	cJSON_AddNumberToObject(summary, "torso_frames", sm->torsoFrames);
	cJSON_AddNumberToObject(summary, "nan_frames", sm->nanFrames);
	cJSON_AddNumberToObject(summary, "planted_foot_frames", sm->plantedFootFrames);
	cJSON_AddNumberToObject(summary, "locked_contact_frames", sm->lockedContactFrames);
	cJSON_AddNumberToObject(summary, "unmeasured_frames", sm->unmeasuredFrames);
	cJSON_AddStringToObject(summary, "unmeasured_reason", sm->unmeasuredReason ? sm->unmeasuredReason : "");

	// The system's own values: min, max and last over the recorded frames.
	const char* names[LB_RUN_MAX_VALUES];
	int valueCount = lbRun_GetSystemValues(run, names, NULL, LB_RUN_MAX_VALUES);
	valueCount = valueCount < LB_RUN_MAX_VALUES ? valueCount : LB_RUN_MAX_VALUES;
	cJSON* sys = cJSON_AddObjectToObject(summary, "system");
	for (int k = 0; k < valueCount && count > 0; ++k)
	{
		float lo = 1.0e30f, hi = -1.0e30f;
		for (int i = 0; i < count; ++i)
		{
			float v = run->values[(size_t)i * LB_RUN_MAX_VALUES + (size_t)k];
			lo = lbMinF(lo, v);
			hi = lbMaxF(hi, v);
		}
		cJSON* o = cJSON_AddObjectToObject(sys, names[k]);
		cJSON_AddItemToObject(o, "min", lbNum(lo));
		cJSON_AddItemToObject(o, "max", lbNum(hi));
		cJSON_AddItemToObject(o, "last", lbNum(run->values[(size_t)(count - 1) * LB_RUN_MAX_VALUES + (size_t)k]));
	}

	cJSON* series = cJSON_AddObjectToObject(root, "series");
	cJSON* time = cJSON_AddArrayToObject(series, "time");
	cJSON* state = cJSON_AddArrayToObject(series, "state");
	for (int i = 0; i < count; ++i)
	{
		cJSON_AddItemToArray(time, lbNum((double)i * (double)s->dt));
		cJSON_AddItemToArray(state, cJSON_CreateString(lbCharacterStateName((lbCharacterState)run->states[i])));
	}
	static const char* const fields[] = { "contact_drift", "penetration",	"hover",		 "palm_wall_angle",
										  "pose_pop_deg",  "pose_pop_m",	"knee_angle_l",	 "knee_angle_r",
										  "elbow_angle_l", "elbow_angle_r", "knee_inverted", "elbow_inverted",
										  "limit_violations", "nan",		"planted_l",	 "planted_r",
										  "sole_penetration", "limb_penetration", "support_l", "support_r",
										  "added_pop_deg", "source_pop_deg", "floating", "unmeasured",
										  "torso_height", "torso_roll_error", "torso_pitch_error", "knee_cross",
										  "self_penetration" };
	for (int f = 0; f < (int)(sizeof fields / sizeof fields[0]); ++f)
		lbAddSeries(series, fields[f], run->series, count, f);
	for (int k = 0; k < valueCount; ++k)
	{
		char key[64];
		snprintf(key, sizeof key, "system.%s", names[k]);
		cJSON* arr = cJSON_AddArrayToObject(series, key);
		for (int i = 0; i < count; ++i)
			cJSON_AddItemToArray(arr, lbNum(run->values[(size_t)i * LB_RUN_MAX_VALUES + (size_t)k]));
	}

	if (withTiming)
	{
		cJSON* timing = cJSON_AddObjectToObject(root, "timing");
		double* sorted = count > 0 ? (double*)lbAlloc((size_t)count * sizeof(double)) : NULL;
		if (sorted)
		{
			memcpy(sorted, run->solveUs, (size_t)count * sizeof(double));
			qsort(sorted, (size_t)count, sizeof(double), lbCompareDouble);
			cJSON_AddItemToObject(timing, "solve_us_median", lbNum(sorted[count / 2]));
			cJSON_AddItemToObject(timing, "solve_us_max", lbNum(sorted[count - 1]));
			lbFree(sorted);
		}
		else
			cJSON_AddNullToObject(timing, "solve_us_median");
	}
	char* printed = cJSON_Print(root);
	cJSON_Delete(root);
	// Handed out in the library's own memory (lbFreeText frees it through the allocator hook).
	size_t len = printed ? strlen(printed) + 1 : 0;
	char* text = printed ? (char*)lbAlloc(len) : NULL;
	if (text)
		memcpy(text, printed, len);
	cJSON_free(printed);
	if (!text)
		lbReport(lb_errorOutOfMemory, "lbRun_ReportJson");
	return text;
}

lbResult lbRun_WriteReport(const lbRun* run, const char* path, bool withTiming)
{
	if (!path)
		return lbReport(lb_errorNullPointer, "lbRun_WriteReport: path is NULL");
	char* text = lbRun_ReportJson(run, withTiming);
	if (!text)
		return lb_errorOutOfMemory;
	FILE* f = fopen(path, "wb");
	if (!f)
	{
		lbFree(text);
		return lbReport(lb_errorIo, "%s: cannot write the report", path);
	}
	size_t len = strlen(text);
	bool ok = fwrite(text, 1, len, f) == len && fputc('\n', f) != EOF;
	ok = (fclose(f) == 0) && ok;
	lbFree(text);
	return ok ? lb_ok : lbReport(lb_errorIo, "%s: write failed", path);
}

static void lbPrintVec(FILE* f, lbVec3 v)
{
	fprintf(f, "[%.7g,%.7g,%.7g]", (double)v.x, (double)v.y, (double)v.z);
}

static void lbPrintXf(FILE* f, lbTransform t)
{
	fprintf(f, "[%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g]", (double)t.p.x, (double)t.p.y, (double)t.p.z,
			(double)t.q.x, (double)t.q.y, (double)t.q.z, (double)t.q.w, (double)t.s.x, (double)t.s.y, (double)t.s.z);
}

static void lbPrintString(FILE* f, const char* s)
{
	fputc('"', f);
	for (; *s; ++s)
	{
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

lbResult lbRun_WritePoseHeader(const lbRun* run, FILE* f)
{
	if (!run || !f)
		return lbReport(lb_errorNullPointer, "lbRun_WritePoseHeader: run and file are required");
	fprintf(f, "{\"limber_poses\":1,\"scenario\":");
	lbPrintString(f, run->scenario->name);
	fprintf(f, ",\"rig\":");
	lbPrintString(f, run->scenario->rig);
	fprintf(f, ",\"dt\":%.7g,\"up\":", (double)run->scenario->dt);
	lbPrintVec(f, run->upWs);
	fprintf(f, ",\"transform_layout\":[\"px\",\"py\",\"pz\",\"qx\",\"qy\",\"qz\",\"qw\",\"sx\",\"sy\",\"sz\"],\"bones\":[");
	for (int i = 0; i < run->skeleton->boneCount; ++i)
	{
		fprintf(f, "%s{\"name\":", i ? "," : "");
		lbPrintString(f, run->skeleton->names[i]);
		fprintf(f, ",\"parent\":%d}", run->skeleton->parents[i]);
	}
	fprintf(f, "]}\n");
	return ferror(f) ? lbReport(lb_errorIo, "pose stream: write failed") : lb_ok;
}

lbResult lbRun_WritePoseLine(const lbRun* run, FILE* f)
{
	if (!run || !f)
		return lbReport(lb_errorNullPointer, "lbRun_WritePoseLine: run and file are required");
	static const char* const kinds[] = { "foot", "hand", "body" };
	// The frame just completed: index frame - 1, at its start time.
	int frame = run->frame - 1;
	fprintf(f, "{\"frame\":%d,\"time\":%.7g,\"state\":\"%s\",\"character\":", frame,
			(double)frame * (double)run->scenario->dt, lbCharacterStateName(run->ctx.state));
	lbPrintXf(f, run->ctx.characterWs);
	fprintf(f, ",\"model\":[");
	for (int i = 0; i < run->pose.boneCount; ++i)
	{
		if (i)
			fputc(',', f);
		lbPrintXf(f, run->pose.model[i]);
	}
	fprintf(f, "],\"contacts\":[");
	for (int i = 0; i < run->output.contactCount; ++i)
	{
		const lbContact* c = &run->output.contacts[i];
		fprintf(f, "%s{\"kind\":\"%s\",\"bone\":%d,\"offset_local\":", i ? "," : "", kinds[c->kind <= 2 ? c->kind : 2], c->bone);
		lbPrintVec(f, c->offsetLocal);
		fprintf(f, ",\"target\":");
		lbPrintVec(f, c->targetWs);
		fprintf(f, ",\"normal\":");
		lbPrintVec(f, c->normalWs);
		fprintf(f, ",\"locked\":%s,\"touching\":%s}", c->locked ? "true" : "false", c->touching ? "true" : "false");
	}
	fprintf(f, "],\"targets\":[");
	lbDragTarget targets[16];
	int n = lbRun_GetDragTargets(run, targets, 16);
	for (int i = 0; i < n && i < 16; ++i)
	{
		fprintf(f, "%s{\"name\":", i ? "," : "");
		lbPrintString(f, targets[i].name);
		fprintf(f, ",\"position\":");
		lbPrintVec(f, targets[i].positionWs);
		fputc('}', f);
	}
	fprintf(f, "]");
	const char* names[LB_RUN_MAX_VALUES];
	float values[LB_RUN_MAX_VALUES];
	int vc = lbRun_GetSystemValues(run, names, values, LB_RUN_MAX_VALUES);
	fprintf(f, ",\"system\":{");
	for (int i = 0; i < vc && i < LB_RUN_MAX_VALUES; ++i)
	{
		fprintf(f, "%s", i ? "," : "");
		lbPrintString(f, names[i]);
		fprintf(f, ":%.7g", (double)values[i]);
	}
	fprintf(f, "}}\n");
	return ferror(f) ? lbReport(lb_errorIo, "pose stream: write failed") : lb_ok;
}
